package permission

import "testing"

func TestHardDeny(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		cmd    string
		denied bool
	}{
		{"rm -rf / is denied", "rm -rf /", true},
		{"rm -fr / is denied", "rm -fr /", true},
		{"separate flags are denied", "rm -r -f /", true},
		{"long flags are denied", "rm --recursive --force /", true},
		{"rm -rf /* is denied", "rm -rf /*", true},
		{"a doubled slash is denied", "rm -rf //", true},
		{"the root after -- is denied", "rm -rf -- /", true},
		{"a quoted root is denied", `rm -rf "/"`, true},
		{"rm -rf ~ is denied", "rm -rf ~", true},
		{"rm -rf ~/ is denied", "rm -rf ~/", true},
		{"rm -rf $HOME is denied", `rm -rf "$HOME"`, true},
		{"a system directory is denied", "rm -rf /usr", true},
		{"the contents of a system directory are denied", "rm -rf /etc/*", true},
		{"sudo does not hide rm", "sudo rm -rf /", true},
		{"sudo with options does not hide rm", "sudo -u root rm -rf /", true},
		{"env and nice do not hide rm", "env A=1 nice -n 5 rm -rf /", true},
		{"a full path to rm is denied", "/bin/rm -rf /", true},
		{"a later part of a list is denied", "cd /tmp && rm -rf /", true},
		{"a command substitution is denied", "echo $(rm -rf /)", true},
		{"bash -c is split and denied", `bash -c "rm -rf /"`, true},
		{"sudo sh -c is split and denied", `sudo sh -c 'rm -rf /'`, true},
		{"eval is split and denied", `eval "rm -rf /"`, true},
		{"the classic fork bomb is denied", ":(){ :|:& };:", true},
		{"a named fork bomb is denied", "bomb() { bomb | bomb & }; bomb", true},
		{"mkfs on a device is denied", "mkfs.ext4 /dev/sda1", true},
		{"sudo mkfs is denied", "sudo mkfs -t ext4 /dev/nvme0n1p2", true},
		{"dd onto a disk is denied", "dd if=/dev/zero of=/dev/sda bs=1M", true},
		{"dd onto an nvme disk is denied", "dd if=x.img of=/dev/nvme0n1", true},
		{"dd onto a mac disk is denied", "dd if=x.img of=/dev/disk2", true},
		{"a redirection onto a disk is denied", "cat x.img > /dev/sdb", true},
		{"an unparsable line is split roughly and denied", `rm -rf / "`, true},

		{"removing a build directory is not hard denied", "rm -rf ./build", false},
		{"removing a relative path is not hard denied", "rm -rf node_modules", false},
		{"removing a subdirectory of home is not hard denied", "rm -rf ~/.cache/thing", false},
		{"removing a deep absolute path is not hard denied", "rm -rf /usr/local/lib/x", false},
		{"a non-recursive rm of / is not hard denied", "rm -f /", false},
		{"a quoted mention is not denied", `echo "rm -rf /"`, false},
		{"grep for the words is not denied", `grep -r "rm -rf /" .`, false},
		{"an unknown variable is not denied", `rm -rf "$DIR"`, false},
		{"a recursive function that waits is not a fork bomb", "walk() { ls | while read d; do walk $d; done; }", false},
		{"dd onto a file is not denied", "dd if=/dev/zero of=./disk.img", false},
		{"dd from a disk is not denied", "dd if=/dev/sda of=backup.img", false},
		{"mkfs on an image file is not denied", "mkfs.ext4 ./fs.img", false},
		{"writing to /dev/null is not denied", "make > /dev/null", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reason, denied := HardDeny(tc.cmd)
			if denied != tc.denied {
				t.Fatalf("HardDeny(%q) = (%q, %v), want denied=%v", tc.cmd, reason, denied, tc.denied)
			}
			if denied && reason == "" {
				t.Fatalf("HardDeny(%q) denied without a reason", tc.cmd)
			}
		})
	}
}
