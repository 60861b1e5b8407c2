package launcher

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// launch is the launcher: it runs inside the new namespaces Prepare asked
// for, with the capabilities it needs there, and execs the program once
// the sandbox is in place. It returns only on failure.
func launch(args []string) error {
	if len(args) >= 1 && args[0] == ServeArg {
		return serve(args[1:])
	}
	if len(args) < 3 || args[1] != "--" {
		return errors.New("usage: " + Subcommand + " SPEC -- PROGRAM [ARGS...]")
	}
	var spec Spec
	if err := json.Unmarshal([]byte(args[0]), &spec); err != nil {
		return fmt.Errorf("spec: %w", err)
	}
	probing = spec.Probe
	argv := args[2:]
	// Mount changes stay in this namespace.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	// The working directory is looked up again once the mounts are in
	// place: until then it is the directory under them, where relative
	// paths would miss every bind.
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("working directory: %w", err)
	}
	if err := mountAll(spec); err != nil {
		return err
	}
	if err := unix.Chdir(wd); err != nil {
		return fmt.Errorf("working directory %s: %w", wd, err)
	}
	env := os.Environ()
	if spec.Net != NetOpen {
		// A fresh network namespace has only a loopback device, and it is
		// down; tests that serve on localhost need it up.
		if err := loopbackUp(); err != nil {
			return fmt.Errorf("loopback: %w", err)
		}
	}
	if spec.Net == NetDomains && spec.ProxyFD > 0 && !spec.Probe {
		port, err := handOverListener(spec.ProxyFD)
		unix.Close(spec.ProxyFD) // the program must not inherit it
		if err != nil {
			return fmt.Errorf("proxy: %w", err)
		}
		env = withProxy(env, "http://127.0.0.1:"+strconv.Itoa(port))
	}
	// Capabilities, no_new_privs and the Landlock domain belong to a
	// thread; the thread that sets them is the one that execs.
	runtime.LockOSThread()
	if err := confine(spec); err != nil {
		return err
	}
	if spec.Probe {
		for spec.Stall {
			time.Sleep(time.Hour) // until the probe's time runs out
		}
		os.Exit(0)
	}
	err = syscall.Exec(argv[0], argv, env)
	return fmt.Errorf("exec %s: %w", argv[0], err)
}

// mountAll puts one command's file system in place in the calling
// thread's mount namespace, whose mounts are already private: the pins,
// the cache layers, the hidden paths, a devpts of its own and the
// read-only binds, in that order (the read-only binds and hidden paths go
// on top of the pins).
func mountAll(spec Spec) error {
	for _, p := range spec.Pin {
		if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("pin %s: %w", p, err)
		}
	}
	if err := layerCaches(spec.Layers); err != nil {
		return err
	}
	if err := hideAll(spec.Hide); err != nil {
		return err
	}
	if err := privateTerminals(); err != nil {
		return fmt.Errorf("terminals: %w", err)
	}
	for _, p := range spec.ReadOnly {
		if err := bindReadOnly(p, p); err != nil {
			return fmt.Errorf("make %s read-only: %w", p, err)
		}
	}
	return nil
}

// confine restricts the calling thread, which must be locked to its
// goroutine, and so whatever it starts or execs: the Landlock ruleset
// built, every capability dropped, no_new_privs set, the seccomp filter
// installed on this thread alone and the Landlock domain entered by this
// thread alone. Each of these is an attribute of a thread that a child
// inherits; none reaches the process's other threads.
func confine(spec Spec) error {
	fd, flags, held, err := ruleset(spec.Write, spec.Sealed)
	if err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	defer func() {
		unix.Close(fd)
		for _, h := range held {
			unix.Close(h)
		}
	}()
	if err := dropCapabilities(); err != nil {
		return fmt.Errorf("drop capabilities: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if !spec.UnixSockets {
		if err := closeUnixSockets(); err != nil {
			return fmt.Errorf("unix sockets: %w", err)
		}
	}
	if err := llsyscall.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("landlock: restrict: %w", err)
	}
	return nil
}

// ruleset builds the Landlock ruleset: everything readable and executable,
// writes only in the writable paths and to the terminal and null devices.
// held are the descriptors the sealed roots' rules were made from, to close
// with the ruleset's once it is in force.
func ruleset(write, sealed []string) (fd int, flags uint32, held []int, err error) {
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil {
		return -1, 0, nil, fmt.Errorf("not supported by this kernel: %w", err)
	}
	if abi < MinABI {
		return -1, 0, nil, fmt.Errorf("kernel Landlock ABI %d is older than %d, which cannot stop truncation", abi, MinABI)
	}
	// The network is the namespaces' business; Landlock keeps files and
	// IPC scopes (signals and abstract sockets out of the sandbox).
	cfg := landlock.Config{
		HandledAccessFS: landlock.V11.HandledAccessFS,
		Scoped:          landlock.V11.Scoped,
	}.BestEffort()
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
			"/dev/tty", "/dev/ptmx").WithIoctlDev().IgnoreIfMissing(),
		landlock.RWDirs("/dev/pts").WithIoctlDev().IgnoreIfMissing(),
	}
	for _, p := range write {
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			continue // gone since the policy was resolved: nothing to allow
		case fi.IsDir() && slices.Contains(sealed, p):
			r, fds := sealedRules(p)
			rules, held = append(rules, r...), append(held, fds...)
		case fi.IsDir():
			rules = append(rules, landlock.RWDirs(p).WithRefer())
		default:
			rules = append(rules, landlock.RWFiles(p))
		}
	}
	closeAll := func() {
		for _, h := range held {
			unix.Close(h)
		}
	}
	fd, flags, err = cfg.NewRulesetFD(rules...)
	if err != nil {
		closeAll()
		return -1, 0, nil, err
	}
	if fd < 0 {
		closeAll()
		return -1, 0, nil, errors.New("this kernel cannot enforce the rules")
	}
	return fd, flags, held, nil
}

// sealedRights are a sealed root's own rights: everything but making
// directories, symbolic links and special files directly in it.
const sealedRights = llsyscall.AccessFSExecute | llsyscall.AccessFSReadFile | llsyscall.AccessFSReadDir |
	llsyscall.AccessFSWriteFile | llsyscall.AccessFSTruncate | llsyscall.AccessFSRemoveDir |
	llsyscall.AccessFSRemoveFile | llsyscall.AccessFSMakeReg | llsyscall.AccessFSRefer

// sealedRules grant a sealed root its own rights and each directory
// already in it every right, so work goes on below while .workbench,
// .claude or .git cannot be made (or moved or linked) into the root. Links
// are left out: the root's rights hold for what they point at. Each
// directory is opened without following links and handed over by its
// descriptor, so one swapped for a link meanwhile gets nothing; the
// descriptors (fds) stay open until the ruleset is in force.
func sealedRules(root string) (rules []landlock.Rule, fds []int) {
	rules = []landlock.Rule{landlock.PathAccess(sealedRights, root)}
	entries, err := os.ReadDir(root)
	if err != nil {
		return rules, nil
	}
	var dirs []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		// root is clean and absolute and the name has no slash: no
		// path/filepath, whose late initialisation would hold the
		// launcher back (see the package comment).
		fd, err := unix.Open(root+"/"+e.Name(), unix.O_PATH|unix.O_NOFOLLOW|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		fds = append(fds, fd)
		dirs = append(dirs, "/proc/self/fd/"+strconv.Itoa(fd))
	}
	if len(dirs) > 0 {
		rules = append(rules, landlock.RWDirs(dirs...).WithRefer())
	}
	return rules, fds
}

// hideAll mounts an empty read-only directory (a tmpfs) over each hidden
// directory and an empty read-only regular file over each hidden file, so
// nothing of theirs can be read and a write fails as on any read-only path
// (the null device would swallow writes and report success).
func hideAll(paths []string) error {
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			continue // gone since the policy was resolved: nothing to hide
		case fi.IsDir():
			if err := unix.Mount("tmpfs", p, "tmpfs",
				unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=0555"); err != nil {
				return fmt.Errorf("hide %s: %w", p, err)
			}
		default:
			files = append(files, p)
		}
	}
	if len(files) == 0 {
		return nil
	}
	empty, unstage, err := stageEmptyFile(paths)
	if err != nil {
		return fmt.Errorf("hide: %w", err)
	}
	defer unstage()
	for _, p := range files {
		if err := bindReadOnly(empty, p); err != nil {
			return fmt.Errorf("hide %s: %w", p, err)
		}
	}
	return nil
}

// stagingDirs are where the launcher may briefly mount a tmpfs of its own
// (in its mount namespace only) to make the empty file hidden files are
// covered with: existing directories, none of them in the project.
var stagingDirs = []string{"/mnt", "/media", "/srv", "/opt", "/run", "/var/tmp", "/tmp", "/dev/shm"}

// stageEmptyFile mounts a tmpfs on a staging directory that holds none of
// avoid, makes an empty file there and returns it; unstage detaches the
// tmpfs again, which the files bound from it outlive. Nothing is created
// on the real file system.
func stageEmptyFile(avoid []string) (string, func(), error) {
	for _, d := range stagingDirs {
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() ||
			slices.ContainsFunc(avoid, func(a string) bool { return within(a, d) || within(d, a) }) {
			continue
		}
		if err := unix.Mount("tmpfs", d, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=0700"); err != nil {
			continue
		}
		unstage := func() { _ = unix.Unmount(d, unix.MNT_DETACH) }
		empty := d + "/empty"
		if err := os.WriteFile(empty, nil, 0o444); err != nil {
			unstage()
			return "", nil, err
		}
		return empty, unstage, nil
	}
	return "", nil, errors.New("no directory to stage the empty file in")
}

// bindReadOnly bind-mounts src over dst and makes the mount read-only. The
// remount keeps the flags the kernel locks in a user namespace (nosuid,
// nodev, noexec, atime), or it would be refused.
func bindReadOnly(src, dst string) error {
	if _, err := os.Lstat(dst); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dst, &st); err != nil {
		return err
	}
	const kept = unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC |
		unix.MS_NOATIME | unix.MS_NODIRATIME | unix.MS_RELATIME
	flags := uintptr(unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY) | uintptr(st.Flags)&kept
	return unix.Mount("", dst, "", flags, "")
}

// loopbackUp brings the namespace's lo device up.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP | unix.IFF_RUNNING)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// handOverListener listens on 127.0.0.1 inside the namespace and passes the
// listening socket to Workbench over the descriptor proxyFD: Workbench's
// proxy accepts on it from outside, so the namespace needs no route out.
// proxyFD stays open: it is the caller's to close.
func handOverListener(proxyFD int) (int, error) {
	lfd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	defer unix.Close(lfd)
	if err := unix.Bind(lfd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return 0, err
	}
	if err := unix.Listen(lfd, 128); err != nil {
		return 0, err
	}
	sa, err := unix.Getsockname(lfd)
	if err != nil {
		return 0, err
	}
	port := sa.(*unix.SockaddrInet4).Port
	if err := unix.Sendmsg(proxyFD, []byte(strconv.Itoa(port)), unix.UnixRights(lfd), nil, 0); err != nil {
		return 0, err
	}
	return port, nil
}

// withProxy points every proxy variable programs read at url.
func withProxy(env []string, url string) []string {
	out := env[:0:0]
	drop := map[string]bool{"HTTP_PROXY": true, "HTTPS_PROXY": true, "ALL_PROXY": true, "NO_PROXY": true,
		"http_proxy": true, "https_proxy": true, "all_proxy": true, "no_proxy": true}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] {
			out = append(out, kv)
		}
	}
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"} {
		out = append(out, k+"="+url)
	}
	return out
}

// dropCapabilities leaves the calling thread, and so the program it execs,
// no capability in the namespace: none in the bounding, ambient,
// inheritable, permitted or effective sets, so nothing the program runs can
// undo a mount.
func dropCapabilities() error {
	for c := 0; c <= 63; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return err
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	return unix.Capset(&hdr, &data[0])
}
