# SPDX-License-Identifier: GPL-2.0
# Sourced by the rig's scripts that fetch Debian packages: a private apt, on its own
# state and sources under DIR, so that nothing is installed on the host and the host's
# own apt is untouched. RVVSTAT_DEBIAN_MIRROR chooses the mirror.
#   debian_apt DIR ARCH[,ARCH...] SUITE...
# makes DIR's sources list (the first ARCH is apt's own architecture) and sets apt_opts,
# to pass to apt-get and apt-cache, then updates the package lists.
debian_mirror=${RVVSTAT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# The mirror may serve a frozen snapshot whose Release files have expired.
no_expiry=(-o Acquire::Check-Valid-Until=false)

debian_apt() {
	local dir=$1 archs=$2 suite arch
	shift 2
	apt_opts=(-o "Dir::Etc::sourcelist=$dir/sources.list" -o Dir::Etc::sourceparts=-
		  -o "Dir::State=$dir/state" -o "Dir::Cache=$dir/cache"
		  -o "APT::Architecture=${archs%%,*}")
	for arch in ${archs//,/ }; do
		apt_opts+=(-o "APT::Architectures::=$arch")
	done
	apt_opts+=(-o Debug::NoLocking=1 -o APT::Sandbox::User=root -o Acquire::Languages=none
		   "${no_expiry[@]}")
	mkdir -p "$dir"/{state/lists/partial,cache/archives/partial}
	for suite in "$@"; do
		case $suite in
		*-security) echo "deb [arch=$archs] ${debian_mirror%/debian}/debian-security $suite main" ;;
		*) echo "deb [arch=$archs] $debian_mirror $suite main" ;;
		esac
	done > "$dir/sources.list"
	apt-get "${apt_opts[@]}" update -qq >&2
}
