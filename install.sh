#!/usr/bin/env bash
# Builds `notes` and installs it with its man page and shell completions, or runs the tests.
# Safe to run again: it installs only the system packages that are missing and overwrites
# the files it installed before.
set -euo pipefail

readonly PROGRAM=install.sh
readonly PACKAGES=(libsqlite3-dev libinotifytools0-dev libncurses-dev libcmark-gfm-dev)
# What the tests use besides: faketime runs a device with its wall clock moved; tmux is the
# terminal in which the interactive tests type into real vim and nano, and press Tab in a
# bash with bash-completion, and choose in fzf.
readonly TEST_PACKAGES=(faketime syncthing tmux vim nano bash-completion zsh fish fzf)

usage() {
    cat <<EOF
Usage: ./install.sh [--prefix DIR] [--no-packages] [--service] [--verbose]
       ./install.sh --test [--no-packages] [--verbose]
       ./install.sh --uninstall [--prefix DIR]
       ./install.sh --print-service [--prefix DIR]

Builds notes in release mode (the Swift runtime linked in) and installs, under PREFIX:
  bin/notes                                   the command
  share/man/man1/notes.1                      the man page
  share/bash-completion/completions/notes     bash completion
  share/zsh/site-functions/_notes             zsh completion
  share/fish/vendor_completions.d/notes.fish  fish completion

Options:
  --prefix DIR     Install under DIR (default: /usr/local).
  --test           Build and run the test suite instead of installing; exit with its status.
                   Also installs what the tests use (${TEST_PACKAGES[*]}).
  --no-packages    Do not install the system packages (${PACKAGES[*]}) with apt-get.
  --service        Also install a systemd user service, notes-watch.service, that runs
                   'notes watch' in the background for the default store (or NOTES_STORE
                   as set now), and enable and start it when 'systemctl --user' works.
  --print-service  Print that service's unit file and exit, without building anything.
  --uninstall      Remove what an install under PREFIX put there (and the user service, stopped
                   first, when it runs that notes); stores and cloud folders are left alone.
  --verbose        Show every line of the build, rather than one a module and step.
  -h, --help       Show this help.

Environment:
  NOTES_BUILD_PATH       The build folder (swift's --scratch-path; default: .build).
  NOTES_TEST_BUILD_PATH  The build folder of --test and its fuzz targets, with flags of its own
                         (default: .build-test).
EOF
}

fail() {
    echo "$PROGRAM: $*" >&2
    exit 1
}

usage_error() {
    echo "$PROGRAM: $* (see './install.sh --help')" >&2
    exit 64
}

# Installs the missing system packages with apt-get, through sudo when not root.
install_packages() {
    local missing=() package wanted=("${PACKAGES[@]}")
    if $TEST; then wanted+=("${TEST_PACKAGES[@]}"); fi
    for package in "${wanted[@]}"; do
        if ! dpkg -s "$package" >/dev/null 2>&1; then missing+=("$package"); fi
    done
    if ((${#missing[@]} == 0)); then
        echo "==> System packages: ${wanted[*]} already installed"
        return
    fi
    command -v apt-get >/dev/null 2>&1 \
        || fail "cannot install ${missing[*]}: apt-get not found (install them yourself, then use --no-packages)"
    local run_as_root=()
    if ((EUID != 0)); then
        command -v sudo >/dev/null 2>&1 \
            || fail "cannot install ${missing[*]}: not root and sudo not found (install them yourself, then use --no-packages)"
        run_as_root=(sudo)
    fi
    echo "==> Installing system packages: ${missing[*]}"
    "${run_as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
        || fail "cannot install ${missing[*]}: apt-get update failed"
    "${run_as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Dpkg::Use-Pty=0 --no-install-recommends "${missing[@]}" \
        || fail "cannot install ${missing[*]}: apt-get install failed"
}

# Passes swift's output through, with one progress line per module and step instead of one
# per source file, unless --verbose. Warnings, errors and test results pass unchanged.
readable_progress() {
    if $VERBOSE; then
        cat
        return
    fi
    local line step
    local -A seen=()
    local progress='^\[[0-9]+/[0-9]+\] (.*)$' compiling='^(Compiling [^ ]+) [^ ]+\.swift'
    while IFS= read -r line; do
        if [[ $line =~ $progress ]]; then
            step=${BASH_REMATCH[1]}
            [[ $step =~ $compiling ]] && step=${BASH_REMATCH[1]}
            [[ -n ${seen[$step]:-} ]] && continue
            seen[$step]=1
            line="${line%%]*}] $step"
        fi
        printf '%s\n' "$line"
    done
}

# Runs swift with the build folder and readable output; returns swift's status.
swift_run() {
    swift "$@" --scratch-path "$BUILD_PATH" 2>&1 | readable_progress
}

# The nearest folder that exists on the way up from a path.
existing_ancestor() {
    local path=$1
    while [[ ! -e $path ]]; do path=$(dirname "$path"); done
    printf '%s\n' "$path"
}

# Fails early, before a long build, when a folder cannot be made or written.
check_writable() {
    local folder=$1 ancestor
    ancestor=$(existing_ancestor "$folder")
    [[ -d $ancestor ]] || fail "cannot write to '$folder': '$ancestor' is not a folder"
    [[ -w $ancestor && -x $ancestor ]] || fail "cannot write to '$folder': permission denied"
}

# Installs one file with a mode, making its folder when needed.
install_file() {
    local mode=$1 source=$2 target=$3 folder
    folder=$(dirname "$target")
    [[ -r $source ]] || fail "cannot install '$source': no such file"
    mkdir -p "$folder" 2>/dev/null || fail "cannot write to '$folder': cannot make the folder"
    install -m "$mode" "$source" "$target" 2>/dev/null || fail "cannot write to '$target': permission denied"
}

run_tests() {
    # The code stays as swift-format writes it (.swift-format): a line it would change fails.
    echo "==> Checking the format (swift format lint)"
    swift format lint --strict --parallel --recursive --configuration .swift-format \
        Sources Tests Package.swift Fuzz/Sources Fuzz/Package.swift \
        || fail "the code is not as swift-format writes it: run 'swift format format --in-place --recursive --configuration .swift-format Sources Tests Package.swift Fuzz'"
    # The release configuration without optimization, with testable imports and without
    # debug information: each module compiled whole in one job, and no DEBUG, so the
    # argument parser does not check the command's definition again at every run of `notes`.
    # The build takes three quarters of the debug configuration's time and the tests nine
    # tenths. Assertions still hold (-Onone), and a failed expectation names its source line
    # by itself; a crash's backtrace names functions without lines. The flags differ from
    # those of `swift build` and of the install, hence a folder of its own (which the fuzz
    # targets share, below). C is compiled without optimization too: BoringSSL builds in three
    # quarters of the time.
    echo "==> Building the tests (in $BUILD_PATH)"
    local flags=(-c release -Xswiftc -Onone -Xswiftc -enable-testing -Xswiftc -gnone -Xcc -g0 -Xcc -O0)
    swift_run build --build-tests "${flags[@]}" || fail "the build of the tests failed"
    echo "==> Running the tests"
    local status=0
    swift_run test --skip-build "${flags[@]}" || status=$?
    ((status == 0)) || echo "$PROGRAM: the tests failed (status $status)" >&2
    # Every reader of untrusted bytes, fuzzed for 10 seconds each (NOTES_FUZZ_SECONDS). The
    # fuzz targets are built in the tests' folder, whose C libraries they reuse (their Swift
    # modules take the place of the tests' ones, so a second run builds both again).
    local fuzzed=0 folder=$BUILD_PATH
    [[ $folder == /* ]] || folder="$PWD/$folder"
    NOTES_FUZZ_BUILD_PATH=$folder ./Fuzz/run.sh "${NOTES_FUZZ_SECONDS:-10}" || fuzzed=$?
    ((fuzzed == 0)) || echo "$PROGRAM: fuzzing found a problem (status $fuzzed)" >&2
    ((status != 0)) || status=$fuzzed
    exit "$status"
}

install_notes() {
    local folders=(bin share/man/man1 share/bash-completion/completions share/zsh/site-functions
        share/fish/vendor_completions.d)
    local folder
    for folder in "${folders[@]}"; do check_writable "$PREFIX/$folder"; done

    # With the Swift runtime and Foundation linked in, each run of notes starts about 5 ms
    # sooner (no relocation of their shared libraries), which completion and scripts feel.
    echo "==> Building notes in release mode (in $BUILD_PATH)"
    swift_run build -c release --static-swift-stdlib --product notes || fail "the build failed"
    local binary
    binary="$(swift build -c release --static-swift-stdlib --scratch-path "$BUILD_PATH" --show-bin-path)/notes"
    [[ -x $binary ]] || fail "cannot find the built notes at '$binary'"

    SCRATCH=$(mktemp -d)
    trap 'rm -rf "$SCRATCH"' EXIT
    local shell
    for shell in bash zsh fish; do
        "$binary" --generate-completion-script "$shell" >"$SCRATCH/notes.$shell" \
            || fail "cannot generate the $shell completion script"
    done

    echo "==> Installing into $PREFIX"
    install_file 0755 "$binary" "$PREFIX/bin/notes"
    # Debug symbols are half the binary's size, and no use to someone running it.
    if command -v strip >/dev/null 2>&1; then strip "$PREFIX/bin/notes" 2>/dev/null || true; fi
    install_file 0644 man/notes.1 "$PREFIX/share/man/man1/notes.1"
    install_file 0644 "$SCRATCH/notes.bash" "$PREFIX/share/bash-completion/completions/notes"
    install_file 0644 "$SCRATCH/notes.zsh" "$PREFIX/share/zsh/site-functions/_notes"
    install_file 0644 "$SCRATCH/notes.fish" "$PREFIX/share/fish/vendor_completions.d/notes.fish"
    echo "installed notes $("$PREFIX/bin/notes" --version) into $PREFIX: bin/notes, the man page and bash, zsh and fish completions"
    case ":$PATH:" in
        *":$PREFIX/bin:"*) ;;
        *) echo "note: $PREFIX/bin is not on PATH; add it to run 'notes'" ;;
    esac
}

# The systemd user unit that runs the watcher for one store.
service_unit() {
    cat <<UNIT
[Unit]
Description=notes watch: keep the notes store in sync with the other devices
Documentation=man:notes(1)

[Service]
ExecStart=$PREFIX/bin/notes watch
${NOTES_STORE:+Environment=NOTES_STORE=$NOTES_STORE
}Restart=on-failure
RestartSec=5

[Install]
WantedBy=default.target
UNIT
}

# The files an install puts under PREFIX.
installed_files() {
    printf '%s\n' "$PREFIX/bin/notes" "$PREFIX/share/man/man1/notes.1" \
        "$PREFIX/share/bash-completion/completions/notes" "$PREFIX/share/zsh/site-functions/_notes" \
        "$PREFIX/share/fish/vendor_completions.d/notes.fish"
}

uninstall_notes() {
    local unit="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user/notes-watch.service" file removed=0
    if [[ -f $unit ]] && grep -qxF "ExecStart=$PREFIX/bin/notes watch" "$unit"; then
        systemctl --user disable --now notes-watch.service >/dev/null 2>&1 || true
        rm -f "$unit" || fail "cannot remove '$unit'"
        systemctl --user daemon-reload >/dev/null 2>&1 || true
        echo "removed the user service $unit"
    fi
    while IFS= read -r file; do
        [[ -e $file || -L $file ]] || continue
        rm -f "$file" 2>/dev/null || fail "cannot remove '$file': permission denied"
        removed=$((removed + 1))
    done < <(installed_files)
    if ((removed == 0)); then
        echo "notes is not installed under $PREFIX: nothing to remove"
    else
        echo "removed notes from $PREFIX ($removed files); stores and cloud folders are left as they are"
    fi
}

install_service() {
    local folder="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"
    mkdir -p "$folder" || fail "cannot create '$folder'"
    service_unit >"$folder/notes-watch.service" || fail "cannot write '$folder/notes-watch.service'"
    echo "installed the user service $folder/notes-watch.service"
    if systemctl --user daemon-reload >/dev/null 2>&1; then
        systemctl --user enable --now notes-watch.service >/dev/null 2>&1 \
            || fail "cannot start notes-watch.service: see 'systemctl --user status notes-watch.service'"
        echo "started notes-watch.service ('systemctl --user status notes-watch.service' shows it)"
    else
        echo "note: systemctl --user is not available here; start it later with 'systemctl --user enable --now notes-watch.service'"
    fi
}

PREFIX=/usr/local
TEST=false
SERVICE=false
PRINT_SERVICE=false
UNINSTALL=false
VERBOSE=false
PACKAGES_WANTED=true
while (($# > 0)); do
    case $1 in
        --prefix)
            (($# >= 2)) && [[ -n $2 ]] || usage_error "--prefix needs a folder"
            PREFIX=$2
            shift 2
            ;;
        --prefix=*)
            PREFIX=${1#--prefix=}
            [[ -n $PREFIX ]] || usage_error "--prefix needs a folder"
            shift
            ;;
        --test) TEST=true; shift ;;
        --service) SERVICE=true; shift ;;
        --print-service) PRINT_SERVICE=true; shift ;;
        --uninstall) UNINSTALL=true; shift ;;
        --verbose) VERBOSE=true; shift ;;
        --no-packages) PACKAGES_WANTED=false; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage_error "unknown option '$1'" ;;
    esac
done
[[ $PREFIX == /* ]] || PREFIX="$PWD/$PREFIX"
PREFIX=${PREFIX%/}
[[ -n $PREFIX ]] || PREFIX=/

if $PRINT_SERVICE; then service_unit; exit 0; fi
if $UNINSTALL; then
    if $TEST || $SERVICE; then usage_error "--uninstall goes alone (with --prefix)"; fi
    uninstall_notes
    exit 0
fi
cd "$(dirname "${BASH_SOURCE[0]}")"
if $TEST; then BUILD_PATH=${NOTES_TEST_BUILD_PATH:-.build-test}; else BUILD_PATH=${NOTES_BUILD_PATH:-.build}; fi

command -v swift >/dev/null 2>&1 || fail "swift not found: install Swift 6.1 or later and put it on PATH"
if $PACKAGES_WANTED; then install_packages; fi
if $TEST; then run_tests; fi
install_notes
if $SERVICE; then install_service; fi
