package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// The red team of session 7 found these: programs whose writes were judged
// by their rule alone, and git options that run a command. Each test holds
// one class closed with the spellings that got through.

// writesAsk checks that each command asks in the default mode and in
// bypassPermissions (and never allows), and that each benign one is
// allowed, all in project with OUT standing for outside.
func writesAsk(t *testing.T, p *Policy, project, outside string, attacks, benign []string) {
	t.Helper()
	for _, cmd := range attacks {
		cmd = replaceOut(cmd, outside)
		for _, mode := range []Mode{ModeDefault, ModeBypass, ModeAcceptEdits} {
			if d := evalIn(p, project, mode, cmd); d.Behavior == Allow {
				t.Errorf("%s, %s: allowed by %q (%s), want ask or deny", mode, cmd, d.Rule, d.Message)
			}
		}
	}
	for _, cmd := range benign {
		cmd = replaceOut(cmd, outside)
		if d := evalIn(p, project, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// Compressors replace each file with its twin beside it: `gzip OUT/f`
// wrote OUT/f.gz and removed OUT/f, `gunzip .workbench/settings.json.gz`
// wrote a settings file, all under Bash(gzip:*) alone. A suffix with a /,
// a name restored from the archive (-N) and zstd's -o and --output-dir-*
// write elsewhere.
func TestH15_CompressorsWriteTheirOperands(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	var allow []string
	for name := range compressors {
		allow = append(allow, "Bash("+name+":*)")
	}
	p := newPolicy(t, []string{project}, rules{allow: allow})
	writesAsk(t, p, project, outside, []string{
		`gzip OUT/f`, `gzip -9 OUT/f`, `gunzip OUT/f.gz`, `gzip -d OUT/f.gz`, `gzip -S /../../x src/a.txt`,
		`gzip -S -c OUT/f`, `gzip --suffix=/x src/a.txt`, `gunzip -N src/x.gz`, `gunzip --name src/x.gz`,
		`gunzip .workbench/settings.json.gz`, `gzip .git/config`, `gunzip .git/hooks/pre-commit.gz`,
		`bzip2 OUT/f`, `bunzip2 OUT/f.bz2`, `xz OUT/f`, `xz -T0 OUT/f`, `unxz OUT/f.xz`, `xz --suffix=/../../x src/a.txt`,
		`zstd OUT/f`, `zstd src/a.txt -o OUT/x`, `zstd -oOUT/x src/a.txt`, `zstd -c src/a.txt -o OUT/x`,
		`zstd --output-dir-flat OUT src/a.txt`, `zstd --output-dir-mirror=OUT src/a.txt`, `zstd --filelist=l`,
		`unzstd OUT/f.zst`, `lz4 src/a.txt OUT/x`, `brotli -o OUT/x src/a.txt`, `pigz OUT/f`, `lzip -o OUT/x src/a.txt`,
	}, []string{
		`gzip src/a.txt`, `gzip -9 -k src/a.txt`, `gzip -c src/a.txt > src/a.gz`, `gzip -dc OUT/f.gz`, `gzip -l OUT/f.gz`,
		`gzip -t OUT/f.gz`, `xz -T0 src/a.txt`, `zstd -19 src/a.txt`, `zstd -d src/a.zst -o src/a`, `bzip2 -c OUT/f`,
		`zstd -c OUT/f`,
	})
}

// patch writes the files its patch names, which the line does not show;
// -o, -r, -d and a backup prefix write elsewhere. `patch -p1 -d OUT -i
// fix.diff` changed OUT's files under Bash(patch:*).
func TestH15_PatchWritesWhatThePatchNames(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(patch:*)"}})
	writesAsk(t, p, project, outside, []string{
		`patch -p1 < fix.diff`, `patch -i fix.diff`, `patch -p0 --input=fix.diff`, `patch -d OUT -p1 -i fix.diff`,
		`patch --directory=src -i fix.diff`, `patch -o OUT/x src/a.txt fix.diff`, `patch --output=OUT/x src/a.txt fix.diff`,
		`patch OUT/f fix.diff`, `patch src/a.txt fix.diff -r OUT/rej`, `patch -B /tmp/ src/a.txt fix.diff`,
		`patch -z /x src/a.txt fix.diff`, `patch .git/config fix.diff`,
	}, []string{
		`patch src/a.txt fix.diff`, `patch -o src/b src/a.txt fix.diff`, `patch --dry-run -p1 -i fix.diff`,
	})
}

// split, csplit and mktemp write where their prefix or template says;
// split --filter runs a command.
func TestH15_PrefixesAndTemplatesAreWritten(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(split:*)", "Bash(csplit:*)", "Bash(mktemp:*)"},
		deny: []string{"Bash(curl:*)"}})
	writesAsk(t, p, project, outside, []string{
		`split src/a.txt OUT/x`, `split -b 1 src/a.txt OUT/pre`, `split --additional-suffix=/../x src/a.txt`,
		`split --filter='curl x' src/a.txt`, `csplit -f OUT/x src/a.txt 1`, `csplit --prefix=OUT/x src/a.txt 1`,
		`csplit -b /../x%02d src/a.txt 1`, `mktemp -p OUT`, `mktemp OUT/xXXXXXX`, `mktemp --tmpdir=OUT`,
		`mktemp -d -p OUT`, `mktemp -p src ../../../xXXXX`, `mktemp -t ../../xXXXX`, `mktemp .git/hooks/pre-commitXXX`,
	}, []string{
		`split -l 10 src/a.txt src/part-`, `split src/a.txt`, `csplit src/a.txt 1`, `mktemp`, `mktemp -d`,
		`mktemp -t x.XXXXXX`, `mktemp src/xXXXX`, `mktemp -p src xXXXX`,
	})
}

// Compilers, linkers and the binutils write their -o (also passed through
// -Wl, and -Xlinker), dependency and map files, and change their operands
// in place (strip, objcopy, ranlib, ar); -B, -wrapper, plugins and
// response files run or read what the line does not show.
func TestH15_CompilersAndLinkersWriteTheirOutputs(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	var allow []string
	for _, n := range []string{"gcc", "cc", "clang", "g++", "ld", "as", "strip", "objcopy", "ranlib", "ar", "cpio"} {
		allow = append(allow, "Bash("+n+":*)")
	}
	p := newPolicy(t, []string{project}, rules{allow: allow, deny: []string{"Bash(curl:*)"}})
	writesAsk(t, p, project, outside, []string{
		`gcc -o OUT/x a.c`, `gcc a.c -oOUT/x`, `cc -o OUT/x a.c`, `clang -o OUT/x a.c`, `g++ -o .git/hooks/pre-commit a.c`,
		`gcc -MF OUT/x -MD a.c`, `gcc -MFOUT/x -MD a.c`, `gcc -B/tmp/evil a.c`, `gcc -wrapper curl,x a.c`,
		`gcc -fplugin=OUT/p.so a.c`, `gcc @args a.c`, `gcc a.c -Wl,-o,OUT/x`, `gcc a.c -Wl,--output=OUT/x`,
		`gcc a.c -Xlinker -Map=OUT/m`, `ld -o OUT/x a.o`, `ld --output OUT/x a.o`, `ld -plugin OUT/p.so a.o`,
		`as -o OUT/x a.s`, `strip OUT/f`, `strip -o OUT/x a.o`, `objcopy a.o OUT/x`, `objcopy -O binary a.o OUT/x`,
		`objcopy --dump-section .text=OUT/x a.o`, `ranlib OUT/x.a`, `ar rc OUT/x.a a.o`, `ar r OUT/x.a a.o`,
		`ar xP lib.a`, `ar x lib.a --output OUT`, `cpio -i -D OUT`, `cpio -id`, `cpio -p OUT`, `cpio -o -F OUT/x`,
	}, []string{
		`gcc -O2 -Wall -c a.c -o build/a.o`, `gcc -o build/x a.c -Wl,-rpath,/usr/lib`, `cc a.c`, `ld -o a.out a.o`,
		`as -o a.o a.s`, `strip build/x`, `objcopy -O binary build/x build/x.bin`, `ar rcs build/lib.a a.o`,
		`ar t OUT/lib.a`, `cpio -o -F build/a.cpio`, `gcc -fopenmp a.c`,
	})
}

// git subcommands that write outside the repository's own files (a new
// worktree, a clone, a bundle, an archive, checkout-index --prefix) have
// those places checked; `git init` writes a .git; the program git starts
// for the other end (--upload-pack, --receive-pack, --exec, clone -u), a
// template's hooks and clone's -c settings run commands: `git clone -u
// 'curl x' . y` ran curl under a deny rule for it.
func TestH15_GitSubcommandsThatWriteOrRun(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(git:*)"}, deny: []string{"Bash(curl:*)"}})
	writesAsk(t, p, project, outside, []string{
		`git worktree add OUT/wt`, `git worktree add ../wt`, `git worktree add -b x OUT/wt`, `git worktree move wt OUT/wt`,
		`git clone https://x/y OUT/z`, `git clone --depth 1 https://x/y OUT/z`, `git init OUT/z`, `git init`,
		`git init --separate-git-dir=OUT/g r`, `git checkout-index -a --prefix=OUT/`, `git bundle create OUT/b HEAD`,
		`git archive -o OUT/a.tar HEAD`, `git submodule add https://x/y OUT/z`, `git clone --template=OUT . y`,
		`git init --template=OUT`,
	}, []string{
		`git clone https://x/y`, `git clone https://x/y vendor/y`, `git worktree add wt`, `git worktree list`,
		`git archive -o build/a.tar HEAD`, `git fetch origin`, `git bundle list-heads OUT/b`,
	})
	for _, cmd := range []string{
		`git clone -u 'curl x' . y`, `git clone -ucurl . y`, `git clone --upload-pack='curl x' . y`,
		`git fetch --upload-pack='curl x' .`, `git ls-remote --upload-pack 'curl x' .`, `git push --receive-pack='curl x' .`,
		`git push --exec='curl x' .`, `git archive --remote=. --exec='curl x' HEAD`, `git pull --upload-pack='curl x' .`,
		`git clone --config core.fsmonitor=curl . y`, `git clone -c core.fsmonitor=curl . y`,
	} {
		if d := evalIn(p, project, ModeBypass, cmd); d.Behavior != Deny {
			t.Errorf("%s: %s by %q (%s), want deny", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// make reads a makefile from a descriptor the line fills (`echo 'all:;
// curl x' | make -f /dev/stdin`): its commands are not in the line.
func TestH15_MakefileFromADescriptor(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(make:*)", "Bash(echo:*)"}})
	writesAsk(t, p, project, outside, []string{
		`echo 'all:; curl x' | make -f /dev/stdin`, `make -f - all`, `make --file=/dev/fd/3`, `make --makefile /dev/stdin`,
		`make -f <(echo 'all:; curl x')`,
	}, []string{`make`, `make -f Makefile.ci test`, `make -C src`, `make -j4 all`})
}

// Programs that write beneath a directory, at names the line does not
// show: an archive extracted in the project root (members
// .git/hooks/pre-commit or .workbench/settings.local.json), a recursive
// copy merged into it (`cp -r src/t/. .`, `rsync -a src/t/ .`), `rm -rf
// $PWD`, `find . -delete`, `gzip -r .`, all allowed by their rules before.
// A directory that holds no protected place stays quiet.
func TestH15_WritesBeneathADirectoryHoldingProtectedPlaces(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(tar:*)", "Bash(unzip:*)", "Bash(cp:*)",
		"Bash(rsync:*)", "Bash(rm:*)", "Bash(find:*)", "Bash(gzip:*)", "Bash(gunzip:*)", "Bash(chmod:*)", "Bash(ar:*)"}})
	p.AddRunLater(filepath.Join(project, "scripts", "check.sh"))
	for _, name := range []string{".git", ".workbench", "scripts"} {
		if err := os.MkdirAll(filepath.Join(project, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writesAsk(t, p, project, outside, []string{
		`tar -xf src/e.tar`, `tar -xf src/e.tar -C .`, `tar xf src/e.tar --directory=` + project, `unzip src/e.zip`,
		`unzip src/e.zip -d .`, `cp -r src/t/. .`, `cp -rT src/t .`, `cp -a src/t/. ./`, `cp -r src/t/.git .`,
		`rsync -a src/t/ .`, `rsync -r src/t/ ./`, `rm -rf ` + project, `rm -rf ../` + filepath.Base(project),
		`chmod -R 777 ` + project, `find . -delete`, `find ` + project + ` -delete`, `find . -name '*.json' -delete`,
		`find . -iname SETTINGS.JSON -delete`, `find . -name '*.o' -o -name x -delete`, `gzip -r .`, `gunzip -r .`,
		`ar x src/lib.a`, `tar -xf src/e.tar -C scripts`, `cp -r src/t/. scripts`,
	}, []string{
		`tar -xzf src/a.tgz -C src`, `unzip src/a.zip -d build`, `cp -r src/t .`, `rsync -a src/t .`, `rm -rf src build`,
		`chmod -R 755 src`, `find . -name '*.o' -delete`, `find src -delete`, `gzip -r src`, `ar x src/lib.a --output build`,
	})
}

// A file a command names is resolved as the kernel resolves it: a link,
// then `..` from where it leads. `cat src/outlink/../001/.env`, where
// src/outlink leads to a sibling of the project, read the project's .env
// under Read(./.env): the name was cleaned to src/001/.env first.
func TestH15_ReadsFollowALinkBeforeItsDotDot(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	if err := os.WriteFile(filepath.Join(project, ".env"), []byte("TOKEN=x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(cat:*)", "Bash(head:*)"}, deny: []string{"Read(./.env)"}})
	back := "src/outlink/../" + filepath.Base(project) + "/.env"
	if filepath.Dir(outside) != filepath.Dir(project) {
		t.Fatalf("the test wants %s and %s side by side", project, outside)
	}
	for _, cmd := range []string{`cat ` + back, `head < ` + back, `cat ./` + back + ` src/a.txt`, `cat src/a.txt ` + back} {
		if d := evalIn(p, project, ModeBypass, cmd); d.Behavior != Deny || d.Rule != "Read(./.env)" {
			t.Errorf("%s: %s by %q (%s), want deny by Read(./.env)", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	if d := evalIn(p, project, ModeDefault, `cat src/outlink/../src/a.txt`); d.Behavior != Allow {
		t.Errorf("%s by %q (%s), want allow", d.Behavior, d.Rule, d.Message)
	}
}

// Claude Code reads a rule whose only wildcard is a trailing ` *` as the
// command with or without arguments (`Bash(ls *)` matches ls and ls -la,
// not lsof). Workbench required an argument, so a deny rule written that
// way, `Bash(git push *)`, let a bare `git push` through under a broad
// allow, in every mode.
func TestH15_TrailingStarMatchesTheBareCommand(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash"}, deny: []string{"Bash(git push *)", "Bash(rm *)"},
		ask: []string{"Bash(npm publish *)"}})
	for _, c := range []commandCase{
		{`git push`, Deny, "Bash(git push *)", ""}, {`git push origin main`, Deny, "Bash(git push *)", ""},
		{`cd . && git push`, Deny, "Bash(git push *)", ""}, {`rm`, Deny, "Bash(rm *)", ""},
		{`npm publish`, Ask, "Bash(npm publish *)", ""}, {`git push-all`, Allow, "Bash", ""}, {`rmdir x`, Allow, "Bash", ""},
	} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, root, mode, c.cmd); d.Behavior != c.want || (c.want != Allow && d.Rule != c.rule) {
				t.Errorf("%s, %s: %s by %q (%s), want %s by %q", mode, c.cmd, d.Behavior, d.Rule, d.Message, c.want, c.rule)
			}
		}
	}
	p = newPolicy(t, []string{root}, rules{allow: []string{"Bash(ls *)", "Bash(ls*)", "Bash(git * main)"}})
	checkCommands(t, p, root, []commandCase{
		{`ls`, Allow, "Bash(ls *)", ""}, {`ls -la`, Allow, "Bash(ls *)", ""}, {`lsof`, Allow, "Bash(ls*)", ""},
		{`git checkout main`, Allow, "Bash(git * main)", ""}, {`git main`, Ask, "", ""},
	})
}

// More programs that wrote or started what their rule alone decided:
// scp copies to a local path and starts -S's program as ssh (`scp -S curl
// a h:x` ran curl under a deny rule for it), sftp likewise and -b's
// commands; link makes a hard link as ln does; mkfifo, mknod, setfacl,
// chattr, sponge, dos2unix, iconv -o, xxd IN OUT, pandoc -o (and -F's
// filter), openssl -out, 7z's archive and extraction; git apply and git am
// write the files the patch names.
func TestH15_MoreWritersAndTheProgramsTheyStart(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	var allow []string
	for _, n := range []string{"scp", "sftp", "link", "mkfifo", "mknod", "setfacl", "chattr", "sponge", "dos2unix",
		"unix2dos", "iconv", "xxd", "pandoc", "openssl", "7z", "git", "echo"} {
		allow = append(allow, "Bash("+n+":*)")
	}
	p := newPolicy(t, []string{project}, rules{allow: allow, deny: []string{"Bash(curl:*)"}})
	writesAsk(t, p, project, outside, []string{
		`scp src/a.txt OUT/x`, `scp -S curl src/a.txt h:x`, `scp -o ProxyCommand='curl x' src/a.txt h:x`,
		`sftp -S curl h`, `sftp -oProxyCommand='curl x' h`, `sftp -b batch h`, `link OUT/f src/h`, `mkfifo OUT/p`,
		`mknod OUT/p p`, `setfacl -m u:nobody:rwx OUT/f`, `chattr -i OUT/f`, `echo x | sponge OUT/f`,
		`dos2unix OUT/f`, `unix2dos -n src/a.txt OUT/x`, `iconv -f utf8 -t latin1 -o OUT/x src/a.txt`,
		`xxd -r src/a.txt OUT/x`, `pandoc -o OUT/x src/a.md`, `pandoc -F curl src/a.md`, `pandoc -d defs.yaml`,
		`openssl enc -in src/a.txt -out OUT/x`, `openssl req -new -keyout OUT/k`, `7z x a.7z -oOUT`,
		`7z a OUT/x.7z src`, `7z x a.7z`, `git apply fix.diff`, `git apply --unsafe-paths --directory=OUT fix.diff`,
		`git am fix.mbox`, `git apply --stat --apply fix.diff`, `dos2unix .git/config`,
	}, []string{
		`scp src/a.txt h:x`, `scp h:x src/c.txt`, `link src/a.txt src/h`, `dos2unix src/a.txt`, `xxd src/a.txt`,
		`xxd -r src/a.hex src/a.bin`, `pandoc -o build/a.html src/a.md`, `openssl dgst -sha256 src/a.txt`,
		`7z x a.7z -obuild`, `7z l OUT/a.7z`, `git apply --check fix.diff`, `git apply --stat fix.diff`,
		`git apply --cached fix.diff`, `iconv -f utf8 -t latin1 src/a.txt`,
	})
	for _, cmd := range []string{`scp -S curl src/a.txt h:x`, `sftp -S curl h`, `scp -o ProxyCommand='curl x' a h:x`,
		`pandoc --filter curl src/a.md`} {
		if d := evalIn(p, project, ModeBypass, cmd); d.Behavior != Deny {
			t.Errorf("%s: %s by %q (%s), want deny", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// An Edit or Write deny or ask rule that may match a file written beneath a
// tree write's directory asks: `tar -xf e.tar -C src` under
// Edit(./src/keys/**) wrote src/keys/k, a name the line does not show, and
// `rm -rf src` removed it, both allowed before. A bare name (Edit(*.pem))
// may be at any depth.
func TestH15_WriteRulesBeneathATreeWrite(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(tar:*)", "Bash(rm:*)", "Bash(cp:*)", "Bash(unzip:*)"},
		deny: []string{"Edit(./src/keys/**)"}, ask: []string{"Write(*.pem)"}})
	for _, cmd := range []string{`tar -xf e.tar -C src`, `rm -rf src`, `cp -r a/. src`, `unzip e.zip -d src`,
		`tar -xf e.tar -C src/keys/..`, `tar -xf e.tar -C build`, `rm -rf build`} {
		for _, mode := range []Mode{ModeDefault, ModeBypass, ModeAcceptEdits} {
			if d := evalIn(p, project, mode, replaceOut(cmd, outside)); d.Behavior != Ask {
				t.Errorf("%s, %s: %s by %q (%s), want ask", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	p = newPolicy(t, []string{project}, rules{allow: []string{"Bash(tar:*)", "Bash(rm:*)"}, deny: []string{"Edit(./src/keys/**)"}})
	checkCommands(t, p, project, []commandCase{
		{`tar -xf e.tar -C build`, Allow, "Bash(tar:*)", ""}, {`rm -rf build`, Allow, "Bash(rm:*)", ""},
		{`rm -rf src/keys`, Deny, "Edit(./src/keys/**)", ""}, {`rm src/a.txt`, Allow, "Bash(rm:*)", ""},
	})
}

// Deny rules see through more wrappers (setarch, linux32, prlimit, chpst,
// daemonize, valgrind, dbus-launch, xvfb-run, rlwrap, entr, npx, bunx,
// npm exec, pnpm exec and dlx, yarn exec and dlx, bun x);
// at, batch and crontab keep commands that run later, unseen; git
// settings and variables that run a command (remote.*.uploadpack,
// submodule.*.update=!cmd, interactive.diffFilter, merge.*.driver) or send
// git to a config, repository or program directory the line does not
// show (GIT_EXEC_PATH, GIT_CONFIG_GLOBAL, GIT_DIR, ...), and BASH_ENV from
// a descriptor. Under `Bash` allowed and `Bash(rm:*)` denied, each of
// these ran rm in bypassPermissions mode.
func TestH15_MoreWrappersAndGitSettingsAreSeen(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := denyRmEverywhere(t, root)
	for _, cmd := range []string{
		`setarch x86_64 rm x`, `linux32 rm x`, `prlimit --nofile=8 rm x`, `chpst -u me rm x`, `daemonize -c /tmp rm x`,
		`valgrind --tool=none rm x`, `dbus-launch rm x`, `xvfb-run -a rm x`, `rlwrap -f f rm x`, `entr rm x < list`,
		`npx rm x`, `npx -c 'rm x'`, `bunx rm x`, `at now <<< 'rm x'`, `echo 'rm x' | batch`,
		`crontab <<< '* * * * * rm x'`, `crontab f`, `git -c remote.origin.uploadpack='rm x' fetch`,
		`git -c remote.origin.receivepack='rm x' push`, `git -c submodule.x.update='!rm x' submodule update`,
		`git -c interactive.diffFilter='rm x' add -p`, `git -c merge.x.driver='rm x' merge y`,
		`GIT_EXEC_PATH=/tmp git log`, `GIT_CONFIG_GLOBAL=/tmp/c git log`, `GIT_CONFIG_SYSTEM=/tmp/c git log`,
		`GIT_DIR=/tmp/g git log`, `export GIT_TEMPLATE_DIR=/tmp; git init y`, `BASH_ENV=<(echo rm x) bash -c true`,
		`ENV=/dev/stdin sh -i <<< 'rm x'`, `npm exec -- rm x`, `npm x rm x`, `pnpm exec rm x`, `pnpm dlx rm x`,
		`yarn exec rm x`, `bun x rm x`, `npm exec --yes -- rm x`,
	} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior == Allow {
			t.Errorf("%s: allowed by %q (%s), want deny or ask", cmd, d.Rule, d.Message)
		}
	}
	for _, cmd := range []string{`crontab -l`, `at -l`, `setarch x86_64 ls`, `npx prettier --check .`, `git log`} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// tmux and screen start commands in a server that may be the person's
// own (`tmux new -d 'rm x'`, `tmux send-keys -t 0 'rm x' Enter`,
// `screen -dm rm x`, `screen -S s -X stuff 'rm x^M'`): what runs is not
// seen: it asks in every mode, and allow rules do not allow it.
func TestH15_TmuxAndScreenCommandsAreUnseen(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := denyRmEverywhere(t, root)
	for _, cmd := range []string{`tmux new -d 'rm x'`, `tmux new-window rm x`, `tmux send-keys -t 0 'rm x' Enter`,
		`tmux run-shell 'rm x'`, `tmux -c 'rm x'`, `tmux -L s new-session -d -s n rm x`, `screen -dm rm x`,
		`screen -dmS s rm x`, `screen -S s -X stuff 'rm x'`} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior == Allow {
			t.Errorf("%s: allowed by %q (%s), want deny or ask", cmd, d.Rule, d.Message)
		}
	}
	p = newPolicy(t, []string{root}, rules{allow: []string{"Bash(tmux:*)", "Bash(screen:*)"}})
	checkCommands(t, p, root, []commandCase{
		{`tmux new -d 'make test'`, Ask, "", ""}, {`tmux ls`, Allow, "Bash(tmux:*)", ""},
		{`tmux capture-pane -p -t 0`, Allow, "Bash(tmux:*)", ""}, {`screen -ls`, Allow, "Bash(screen:*)", ""},
	})
}
