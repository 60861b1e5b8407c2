package rewind

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// gitStopGrace is how long a stopped git may take to clean up before it is
// killed.
const gitStopGrace = 5 * time.Second

// git runs git plumbing against the shadow repository: its own GIT_DIR and
// GIT_INDEX_FILE, the project as GIT_WORK_TREE. The project's .git is never
// named, so nothing git does here can read its config or touch its index.
type git struct {
	gitDir   string
	workTree string
	// objects is where new objects go: the gitDir's own, or the project's
	// shared object directory.
	objects string
	env     []string
	// broken, once set, is why the shadow repository could not be made
	// (see Store.gitSetUpInLine): every later command fails with it. It is
	// written and read only by work in the store's line.
	broken error
}

// shadowConfig is the shadow repository's whole configuration. System and
// global config are not read (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL), so a
// person's fsmonitor, filters or hooks never run for a checkpoint.
var shadowConfig = []string{
	"core.autocrlf=false",
	"core.symlinks=true",
	"core.filemode=true",
	"core.quotepath=false",
	"core.untrackedCache=true",
	"core.fsmonitor=false",
	"core.preloadIndex=true",
	// Level 1 compresses several times faster than the default and the
	// shadow repository is never sent anywhere.
	"core.looseCompression=1",
	"core.compression=1",
	"gc.auto=0",
	"index.threads=true",
	"advice.addEmbeddedRepo=false",
	"safe.directory=*",
}

// mallocTunables keep glibc's malloc from giving memory back to the system
// after every file git hashes: git allocates and frees a deflate state of a
// few hundred kilobytes per object, and trimming it each time made the
// kernel zero those pages again, which cost more than hashing and
// compressing (a 200 MB tree: 16 s of system time, 3.5 s with these). A C
// library other than glibc ignores the variable.
const mallocTunables = "GLIBC_TUNABLES=glibc.malloc.trim_threshold=67108864:glibc.malloc.top_pad=16777216:glibc.malloc.mmap_threshold=67108864"

// newGit runs git on the shadow repository in gitDir. A non-empty
// objects is the object directory to write to, with gitDir's own objects
// (those of a store made before objects were shared) still read.
func newGit(gitDir, workTree, objects string) *git {
	env := []string{}
	for _, kv := range os.Environ() {
		// A GIT_DIR or GIT_INDEX_FILE inherited from a hook's environment
		// would point these commands at someone else's repository.
		if strings.HasPrefix(kv, "GIT_") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"GIT_DIR="+gitDir,
		"GIT_WORK_TREE="+workTree,
		"GIT_INDEX_FILE="+gitDir+"/index",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=workbench", "GIT_AUTHOR_EMAIL=workbench@localhost",
		"GIT_COMMITTER_NAME=workbench", "GIT_COMMITTER_EMAIL=workbench@localhost",
		"LC_ALL=C",
		mallocTunables,
	)
	own := filepath.Join(gitDir, "objects")
	if objects == "" {
		objects = own
	} else {
		env = append(env, "GIT_OBJECT_DIRECTORY="+objects)
		if st, err := os.Stat(own); err == nil && st.IsDir() {
			env = append(env, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+own)
		}
	}
	return &git{gitDir: gitDir, workTree: workTree, objects: objects, env: env}
}

func (g *git) command(ctx context.Context, args ...string) *exec.Cmd {
	full := make([]string, 0, 2*len(shadowConfig)+len(args))
	for _, c := range shadowConfig {
		full = append(full, "-c", c)
	}
	full = append(full, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = g.env
	cmd.Dir = g.workTree
	// Stopped, git is asked to end (SIGTERM), so it removes its
	// index.lock; killed outright it would leave the lock behind.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = gitStopGrace
	return cmd
}

// run runs one git command and returns its standard output; a failure
// carries git's own message.
func (g *git) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	if g.broken != nil {
		return nil, g.broken
	}
	cmd := g.command(ctx, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out.Bytes(), nil
}

// line runs a command whose output is one line, such as an object id.
func (g *git) line(ctx context.Context, stdin []byte, args ...string) (string, error) {
	out, err := g.run(ctx, stdin, args...)
	return strings.TrimSpace(string(out)), err
}

// blobReader reads objects through one `git cat-file --batch`, so a restore
// of many files starts one process.
type blobReader struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func (g *git) blobs(ctx context.Context) (*blobReader, error) {
	if g.broken != nil {
		return nil, g.broken
	}
	cmd := g.command(ctx, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return &blobReader{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}, nil
}

// read returns one object's content.
func (b *blobReader) read(id string) ([]byte, error) {
	if _, err := io.WriteString(b.in, id+"\n"); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	head, err := b.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(head)
	if len(f) != 3 {
		return nil, fmt.Errorf("git cat-file: object %s: %s", id, strings.TrimSpace(head))
	}
	n, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("git cat-file: bad size in %q", head)
	}
	data := make([]byte, n+1) // the content and its trailing newline
	if _, err := io.ReadFull(b.out, data); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return data[:n], nil
}

func (b *blobReader) close() error {
	b.in.Close()
	err := b.cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return nil // closed stdin ends it; its status says nothing more
	}
	return err
}
