#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The board check, in the riscv64 guest whose root is Debian's riscv64 userland
# (tests/rig/board-check): a board's first contact with rvvstat, done literally.
#   board-quickstart.sh stage2      finish the root's debootstrap, and tar it to share "out"
#   board-quickstart.sh quickstart  run the README's "On a board" commands
# quickstart mounts the source tree (share "src") and what board-check prepared (share
# "check": quickstart, the README's block a command a line; debs, a flat apt repository of the packages its
# apt line pulls in; llama, a riscv64 llama-server and a model), copies the tree, and
# runs the block as a user would paste it, line by line: the apt line, make, insmod,
# rvvctl summary, llama-server, rvvtop. Prints "ok - ..." / "not ok - ..." per step and
# "N passed, N failed" at the end.
set -u
nine_p=trans=virtio,version=9p2000.L,msize=512000

mount_share() {
	mkdir -p "$2" && mount -t 9p -o "$nine_p${3:+,$3}" "$1" "$2"
}

# In the root itself (overlayfs on a tmpfs: QEMU's 9p refuses the device nodes that
# debootstrap makes), then the whole of it as a tar to the share "out".
if [ "${1:-}" = stage2 ]; then
	/debootstrap/debootstrap --second-stage || exit
	# No tty here, nor on the board check's stdin: apt asks nothing.
	echo 'APT::Get::Assume-Yes "true";' > /etc/apt/apt.conf.d/90rvvstat-board-check
	mount_share out /out || exit
	tar -C / --one-file-system -cpf /out/rootfs.tar . || exit
	sync
	exit 0
fi
[ "${1:-}" = quickstart ] || { echo "usage: board-quickstart.sh stage2|quickstart" >&2; exit 2; }

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}

if ! mount_share src /src ro || ! mount_share check /check ro; then
	not_ok "mounting the shares"
	finish
fi
# A board has a name that resolves (sudo asks).
hostname board && echo '127.0.1.1 board' >> /etc/hosts
# The board's mirror is the check's repository: no other source (the guest has no network).
rm -f /etc/apt/sources.list /etc/apt/sources.list.d/*
echo 'deb [trusted=yes] file:/check/debs ./' > /etc/apt/sources.list.d/board-check.list
apt-get update -qq || { not_ok "apt-get update on the local repository"; finish; }
mkdir -p /root/rvvstat
if ! tar -C /src --exclude=./build --exclude=./.git -cf - . | tar -C /root/rvvstat -xf - ||
   ! cd /root/rvvstat; then
	not_ok "copying the tree"
	finish
fi

# What the user supplies: a server on the PATH, a model, a terminal for rvvtop.
export PATH="/check/llama:$PATH" TERM=xterm
step=0 summary_log='' rvvtop_log=''
while IFS= read -r line; do
	step=$((step + 1))
	log=/tmp/step$step.log
	command=$(echo "$line" | sed 's|MODEL\.gguf|/check/llama/tiny.gguf|; s/  *#.*//')
	echo "# \$ $command"
	case $command in
	*'&')
		sh -c "$command" < /dev/null > "$log" 2>&1
		status=$?
		# The server is up when its health says so: minutes under emulation.
		for _ in $(seq 600); do
			curl -sf -o /dev/null http://127.0.0.1:8080/health && break
			sleep 1
		done ;;
	*rvvtop*)
		# Interactive: in a pseudo-terminal, quit with q after some refreshes.
		rvvtop_log=$log
		(sleep 30; printf q) | script -qec "$command" /dev/null > "$log" 2>&1
		status=$? ;;
	*)
		case $command in *'rvvctl summary'*) summary_log=$log ;; esac
		sh -c "$command" < /dev/null > "$log" 2>&1
		status=$? ;;
	esac
	# Terminal control sequences out (rvvtop's screen), each line ended.
	tail -n 15 "$log" | sed 's/\x1b[[(][0-9;?]*[A-Za-z]//g; s/\x1b[=>]//g' | awk '{ print "#   " $0 }'
	if [ "$status" = 0 ]; then ok "$command"; else not_ok "$command (exit $status)"; fi
done < /check/quickstart

# What the steps must have shown, beyond their exit status.
if grep -q 'RISC-V V' "${summary_log:-/dev/null}"; then ok "rvvctl summary names RISC-V V"
else not_ok "rvvctl summary names RISC-V V"; fi
if grep -q 'llama' "${rvvtop_log:-/dev/null}"; then ok "rvvtop shows the llama-server panel"
else not_ok "rvvtop shows the llama-server panel"; fi
finish
