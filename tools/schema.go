package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Schema is a tool's input schema, compiled once by a real JSON Schema
// validator (draft 2020-12), so enum, bounds, patterns, nested objects and
// additionalProperties are all enforced (H1).
type Schema struct {
	name     string
	doc      map[string]any
	raw      json.RawMessage
	defaults map[string]any    // top-level property defaults
	names    map[string]string // every property name, for decodeValue

	// The validator is compiled on first use when the schema was parsed
	// by Build (see parseSchema): compiling every built-in tool's schema
	// at start was a tenth of the time to the first frame.
	compileOnce sync.Once
	compiled    *jsonschema.Schema
	compileErr  error
}

var printer = message.NewPrinter(language.English)

// CompileSchema parses and compiles a schema document. An empty document is
// the schema of a tool without input: an object with no properties.
func CompileSchema(name, doc string) (*Schema, error) {
	s, err := parseSchema(name, doc)
	if err != nil {
		return nil, err
	}
	if err := s.Compile(); err != nil {
		return nil, err
	}
	return s, nil
}

// parseSchema reads a schema document without compiling its validator,
// which Compile (or the first Prepare) does.
func parseSchema(name, doc string) (*Schema, error) {
	if strings.TrimSpace(doc) == "" {
		doc = `{"type":"object","properties":{},"additionalProperties":false}`
	}
	parsed, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("schema is not JSON: %w", err)
	}
	m, ok := parsed.(map[string]any)
	if !ok {
		return nil, errors.New("schema must be a JSON object")
	}
	if _, ok := m["$schema"]; !ok {
		m["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	}
	s := &Schema{name: name, doc: m, names: propertyNames(m, nil)}
	if s.raw, err = json.Marshal(m); err != nil {
		return nil, err
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for k, v := range props {
			if p, ok := v.(map[string]any); ok {
				if d, ok := p["default"]; ok {
					if s.defaults == nil {
						s.defaults = map[string]any{}
					}
					s.defaults[k] = d
				}
			}
		}
	}
	return s, nil
}

// Compile compiles the validator, once; every later call returns the
// first call's answer. Prepare calls it, so an input is never let through
// unchecked: a schema that does not compile refuses every input.
func (s *Schema) Compile() error {
	s.compileOnce.Do(func() {
		c := jsonschema.NewCompiler()
		url := "workbench:///tools/" + s.name + ".json"
		if err := c.AddResource(url, s.doc); err != nil {
			s.compileErr = err
			return
		}
		s.compiled, s.compileErr = c.Compile(url)
	})
	return s.compileErr
}

// propertyNames collects the names under every "properties" keyword of a
// schema document.
func propertyNames(v any, names map[string]string) map[string]string {
	switch v := v.(type) {
	case map[string]any:
		if props, ok := v["properties"].(map[string]any); ok {
			for k := range props {
				if names == nil {
					names = map[string]string{}
				}
				names[k] = k
			}
		}
		for _, sub := range v {
			names = propertyNames(sub, names)
		}
	case []any:
		for _, sub := range v {
			names = propertyNames(sub, names)
		}
	}
	return names
}

// JSON returns the schema document as sent to a model provider.
func (s *Schema) JSON() json.RawMessage { return s.raw }

// Doc returns the parsed schema document; callers must not modify it.
func (s *Schema) Doc() map[string]any { return s.doc }

// Prepare fills defaults and validates input, returning what the tool will
// run with. Empty input counts as {}. The error names the failing path and
// rule (`edits[2].old_string: missing property`).
func (s *Schema) Prepare(input json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage("{}")
	}
	inst, err := decodeValue(input, s.names)
	if err != nil {
		return nil, fmt.Errorf("input is not valid JSON: %v", err)
	}
	if obj, ok := inst.(map[string]any); ok && len(s.defaults) > 0 {
		changed := false
		for k, d := range s.defaults {
			if _, ok := obj[k]; !ok {
				obj[k] = d
				changed = true
			}
		}
		if changed {
			if input, err = json.Marshal(obj); err != nil {
				return nil, err
			}
		}
	}
	if err := s.Compile(); err != nil {
		return nil, fmt.Errorf("the tool's input schema does not compile: %w", err)
	}
	if err := s.compiled.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return nil, describe(ve)
		}
		return nil, err
	}
	return input, nil
}

// describe flattens a validation error to its leaves, each as "path: rule".
func describe(ve *jsonschema.ValidationError) error {
	var parts []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			switch k := e.ErrorKind.(type) {
			case *kind.Required:
				for _, m := range k.Missing {
					parts = append(parts, instancePath(slices.Concat(e.InstanceLocation, []string{m}))+": required property is missing")
				}
			case *kind.AdditionalProperties:
				for _, m := range k.Properties {
					parts = append(parts, instancePath(slices.Concat(e.InstanceLocation, []string{m}))+": unknown property (not in the schema)")
				}
			default:
				parts = append(parts, instancePath(e.InstanceLocation)+": "+e.ErrorKind.LocalizedString(printer))
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(parts) > 5 {
		parts = append(parts[:5], fmt.Sprintf("and %d more", len(parts)-5))
	}
	return errors.New(strings.Join(parts, "; "))
}

// instancePath renders a JSON pointer as a path a person reads: edits[2].old_string.
func instancePath(loc []string) string {
	if len(loc) == 0 {
		return "input"
	}
	var b strings.Builder
	for _, seg := range loc {
		if _, err := strconv.Atoi(seg); err == nil {
			b.WriteString("[" + seg + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}
