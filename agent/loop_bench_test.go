package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/agent/provider/script"
	"github.com/seed92b641c3/workbench/tools"
)

// BenchmarkLoop1000Calls plays a scripted session of 1,000 tool calls (100
// turns of 10 read-only calls) with a transcript recording every stage, as a
// real session does. The tool does no work, so the time per call is the
// loop's own overhead (goal: under 50 µs a call).
func BenchmarkLoop1000Calls(b *testing.B) {
	var turns []string
	for t := range 100 {
		var calls []string
		for i := range 10 {
			calls = append(calls, fmt.Sprintf(`{"id":"c%d_%d","name":"Echo","input":{"text":"x"}}`, t, i))
		}
		turns = append(turns, `{"tool_calls":[`+strings.Join(calls, ",")+`]}`)
	}
	turns = append(turns, `{"text":"done"}`)
	body := []byte(`{"turns":[` + strings.Join(turns, ",") + `]}`)
	b.ReportAllocs()
	for range b.N {
		b.StopTimer()
		sc, err := script.Parse(body)
		if err != nil {
			b.Fatal(err)
		}
		dir := b.TempDir()
		tr, err := OpenTranscript(filepath.Join(dir, "t.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		p := &Pipeline{Tools: tools.NewRegistry(echoTool()), Policy: newBenchPolicy(dir), WorkDir: dir,
			Observe: func(ev StageEvent) { tr.Append(EntryStage, &ev) }}
		s := NewSession(Config{Provider: script.New(sc), Pipeline: p, Transcript: tr}, "bench", nil)
		b.StartTimer()
		out := s.Prompt(context.Background(), "go")
		b.StopTimer()
		if out.StopReason != StopCompleted || out.Turns != 101 {
			b.Fatalf("outcome %+v", out)
		}
		tr.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*1000), "µs/call")
}
