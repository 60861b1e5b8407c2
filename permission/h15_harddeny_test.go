package permission

import "testing"

// Hard deny judges the words bash will run, so what classes 1 to 3 used to
// hide (a value from an echo, a brace, a glob after cd, a tilde form, a
// path through /proc or /dev/fd) is denied in bypassPermissions mode too.
func TestH15_HardDenySeesThroughExpansions(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"*", "Bash"}})
	denied := []string{
		`rm -rf ~root`, `rm -rf ~root/`, `rm -rf "${HOME:?}"`, `rm -rf "${HOME:?}/"`, `rm -rf ${HOME}/*`,
		`rm -rf "$HOME"/..`, `rm -rf ~/`, `rm -rf ~/.*`, `rm -rf ~+/../../../../../../..`,
		`cd / && rm -rf *`, `cd /; rm -rf *`, `cd / || exit; rm -rf -- *`, `cd ~ && rm -rf *`,
		`cd && rm -rf ./*`, `cd /etc && rm -rf .`, `cd /usr; rm -fr ./`, `(cd / && rm -rf *)`,
		`cd "/" && rm -rf *`, `cd -- / && rm -rf *`, `cd /tmp && cd / && rm -rf *`,
		`rm -rf $(echo /)`, `rm -rf "$(echo /)"`, "rm -rf `echo /`", `rm -rf $(printf /)`,
		`rm -rf $(printf '%s' /usr)`, `rm -rf $(dirname /x)`, `rm -rf "$(echo -n /)"`,
		`rm -rf {/,x}`, `rm -rf /{etc,tmp}`, `rm -rf /dev/fd/../../`, `rm -rf /proc/self/root`,
		`rm -rf /proc/self/root/etc`, `rm -rf /e??`, `rm -rf /[eu]sr`, `rm -rf /*/`, `rm -rf /home/*`,
		`\rm -rf /`, `"rm" -rf /`, `/usr/bin/rm -rf /`, `r\m -r\f /`, `$'rm' -rf /`, `command rm -rf /`,
		`sh -c 'rm -rf ~root'`, `eval "cd /; rm -rf *"`, `find / -delete`, `find ~ -exec rm -rf {} +`,
		`x='a[$(rm -rf /)]'; echo $((x))`, `echo ${x@P} 'a[$(rm -rf ~)]'`,
		`bomb() { bomb | bomb & }; bomb`, `f(){ f|f; }; f`, `function g { g & g; }; g`,
		`x(){ { x; } & }; x`, `y(){ "y" | y & }; y`, `z(){ $FUNCNAME | $FUNCNAME & }; z`,
		`.(){ .|.& };.`, `w(){ (w &); w; }; w`, `boom () { boom & boom & }; boom`,
		`mkswap /dev/sda2`, `wipefs -a /dev/nvme0n1`, `wipefs --all /dev/sdb`, `mke2fs /dev/sdb1`,
		`mke2fs -t ext4 /dev/vda1`, `mkfs.xfs -f /dev/vdb`, `mkfs -t ext4 /dev/mapper/vg-root`,
		`mkfs.btrfs /dev/md0`, `sudo wipefs --all /dev/sdc`, `blkdiscard /dev/nvme0n1`,
		`sgdisk --zap-all /dev/sda`, `shred -n1 /dev/sda`, `dd if=/dev/zero of=/dev/sda`,
		`cat /dev/zero > /dev/sda`, `cp disk.img /dev/sdb`, `tee /dev/nvme0n1 < x`,
	}
	for _, s := range denied {
		for _, mode := range []Mode{ModeBypass, ModeDefault} {
			req := bash(s)
			req.WorkDir, req.Mode = root, mode
			if d := p.Evaluate(req); d.Behavior != Deny || d.Rule != "hard-deny" {
				t.Errorf("%s in %s: got %s by %q (%s), want hard deny", s, mode, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	notDenied := []string{
		`rm -rf ./build`, `rm -rf ~/.cache/thing`, `rm -rf node_modules`, `cd /tmp && rm -rf x`,
		`walk() { ls | while read d; do walk "$d"; done; }; walk`, `mkfs.ext4 ./fs.img`,
		`wipefs -n fs.img`, `echo "rm -rf /"`, `find . -name '*.o' -delete`, `cd src && rm -rf *`,
		`rm -rf "$DIR"`, `shred secret.txt`, `x='rm -rf /'; echo "$x"`,
	}
	for _, s := range notDenied {
		req := bash(s)
		req.WorkDir = root
		if d := p.Evaluate(req); d.Rule == "hard-deny" {
			t.Errorf("%s: hard denied (%s)", s, d.Message)
		}
	}
}
