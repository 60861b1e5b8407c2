package agent

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestStageEventJSONRoundTrips(t *testing.T) {
	t.Parallel()
	cases := []StageEvent{
		{CallID: "c1", Tool: "Bash", Stage: StageCall, Outcome: OutcomeOK, Time: time.Date(2026, 11, 30, 1, 2, 3, 4, time.UTC)},
		{CallID: "c\"2", Tool: "T\\x", Stage: StageCapture, Outcome: OutcomeSpilled, Detail: "line\nnext\ttab \x01 \u2603 \xff",
			Rule: "Bash(git:*)", DurationUS: 12, Bytes: 1 << 40, SpillPath: "/tmp/a b", SHA256: "abc", InputDigest: "d",
			Input: json.RawMessage(`{"command":"ls"}`), Time: time.Now().UTC()},
	}
	for _, want := range cases {
		data := want.AppendJSON(nil)
		if !json.Valid(data) {
			t.Fatalf("invalid JSON: %s", data)
		}
		var got StageEvent
		type plain StageEvent // decode without the custom marshaller's help
		if err := json.Unmarshal(data, (*plain)(&got)); err != nil {
			t.Fatal(err)
		}
		if want.Detail != "" {
			want.Detail = "line\nnext\ttab \x01 \u2603 \ufffd"
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("round trip\n got %+v\nwant %+v", got, want)
		}
	}
}

func FuzzStageEventJSON(f *testing.F) {
	f.Add("detail", "rule")
	f.Fuzz(func(t *testing.T, detail, rule string) {
		e := StageEvent{Detail: detail, Rule: rule}
		if data := e.AppendJSON(nil); !json.Valid(data) {
			t.Fatalf("invalid JSON for %q %q: %s", detail, rule, data)
		}
	})
}
