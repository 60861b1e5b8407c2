package provider

import (
	"slices"
	"strings"
)

// Response is an assistant message assembled from a Stream.
type Response struct {
	Message    Message
	StopReason string
	Usage      Usage
}

// Builder assembles the events of one stream into an assistant message. The
// agent loop forwards each event to the UI and adds it to a Builder, so what
// is shown and what is kept come from the same events.
type Builder struct {
	blocks map[int]*partial
	resp   Response
}

type partial struct {
	block    Block
	text     strings.Builder
	complete bool // a tool use has seen its stop event
}

// Add takes the next event of the stream.
func (b *Builder) Add(ev Event) {
	if b.blocks == nil {
		b.blocks = map[int]*partial{}
	}
	at := func(t BlockType) *partial {
		p := b.blocks[ev.Index]
		if p == nil {
			p = &partial{block: Block{Type: t}}
			b.blocks[ev.Index] = p
		}
		return p
	}
	switch ev.Kind {
	case EventTextDelta:
		at(BlockText).text.WriteString(ev.Text)
	case EventThinkingDelta:
		p := at(BlockThinking)
		p.text.WriteString(ev.Text)
		if ev.Signature != "" {
			p.block.Signature = ev.Signature
		}
	case EventToolUseStart:
		p := at(BlockToolUse)
		p.block.ToolUseID, p.block.ToolName = ev.ToolUseID, ev.ToolName
	case EventToolUseStop:
		p := at(BlockToolUse)
		if ev.ToolUseID != "" {
			p.block.ToolUseID = ev.ToolUseID
		}
		if ev.ToolName != "" {
			p.block.ToolName = ev.ToolName
		}
		p.block.Input = ev.Input
		p.complete = true
	case EventUsage:
		b.resp.Usage = ev.Usage
	case EventMessageStop:
		b.resp.StopReason = ev.StopReason
	}
}

// Response returns the message so far. Blocks come in index order; empty
// text blocks and tool uses whose input never completed (a stream that broke
// midway) are left out, since neither can be sent back to a model.
func (b *Builder) Response() Response {
	r := b.resp
	r.Message = Message{Role: RoleAssistant}
	keys := make([]int, 0, len(b.blocks))
	for k := range b.blocks {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := b.blocks[k]
		blk := p.block
		switch blk.Type {
		case BlockText:
			blk.Text = p.text.String()
			if blk.Text == "" {
				continue
			}
		case BlockThinking:
			blk.Thinking = p.text.String()
		case BlockToolUse:
			if !p.complete {
				continue
			}
			blk = ToolUseBlock(blk.ToolUseID, blk.ToolName, blk.Input)
		}
		r.Message.Blocks = append(r.Message.Blocks, blk)
	}
	return r
}

// Collect reads s to its end, closes it, and returns the assembled message.
// On error it returns what had arrived before the error along with it.
func Collect(s Stream) (Response, error) {
	defer s.Close()
	var b Builder
	for s.Next() {
		b.Add(s.Event())
	}
	return b.Response(), s.Err()
}
