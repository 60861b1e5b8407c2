package mcp

import (
	"fmt"
	"slices"
	"strings"
)

// inheritedVars are the only host variables a stdio server gets without its
// entry naming them (H13): enough to find programs, a home directory and a
// locale. Everything else, API keys and tokens above all, must be asked for
// by name in the entry's env.
var inheritedVars = []string{"PATH", "HOME", "LANG"}

// LookupFunc reads a host environment variable, like os.LookupEnv.
type LookupFunc func(name string) (string, bool)

// childEnv builds the complete environment of a stdio server: the inherited
// variables that are set on the host, then the entry's env with references
// expanded, which win over inherited ones. It never starts from the host
// environment, so a variable that is not listed cannot leak.
func childEnv(cfg ServerConfig, lookup LookupFunc) ([]string, error) {
	vars := map[string]string{}
	for _, k := range inheritedVars {
		if v, ok := lookup(k); ok {
			vars[k] = v
		}
	}
	named, err := expandMap("env", cfg.Env, lookup)
	if err != nil {
		return nil, err
	}
	for k, v := range named {
		vars[k] = v
	}
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	env := make([]string, 0, len(keys))
	for _, k := range keys {
		env = append(env, k+"="+vars[k])
	}
	return env, nil
}

// expandMap expands every value of m; field names the map in errors.
func expandMap(field string, m map[string]string, lookup LookupFunc) (map[string]string, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		x, err := expand(v, lookup)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", field, k, err)
		}
		out[k] = x
	}
	return out, nil
}

// expand replaces ${VAR} and ${VAR:-default} with host values. Only the
// references written in the value are read, so an entry gets exactly the
// variables it names. A reference to an unset variable without a default is
// an error: starting a server with an empty token fails later and obscurely,
// while this names the variable to set. A '$' not followed by '{' is kept.
func expand(s string, lookup LookupFunc) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return "", fmt.Errorf("unterminated ${ in %q", s)
		}
		ref := s[i+2 : i+end]
		name, def, hasDef := strings.Cut(ref, ":-")
		if !validVarName(name) {
			return "", fmt.Errorf("${%s} is not a variable reference (use ${NAME} or ${NAME:-default})", ref)
		}
		v, ok := lookup(name)
		switch {
		case ok:
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			return "", fmt.Errorf("references ${%s}, which is not set in the environment", name)
		}
		s = s[i+end+1:]
	}
}

// validVarName accepts shell-style names: a letter or underscore, then
// letters, digits and underscores.
func validVarName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
