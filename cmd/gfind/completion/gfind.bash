# bash completion for gfind(1).
#
# Install: source this file from ~/.bashrc, or copy it to
# /usr/share/bash-completion/completions/gfind (or
# ~/.local/share/bash-completion/completions/gfind).
#
# Completes gfind's own options and GNU find's leading options before the
# starting points, then every primary of the expression, with arguments
# where they are obvious (-type letters, -regextype names, files, users,
# groups, commands). It needs only bash itself, not the bash-completion
# package. cmd/gfind/doc_test.go checks that it knows every option and
# primary that gfind --help lists.

# _gfind_options are gfind's leading options.
_gfind_options=(
    -H -L -P -D -O
    -j --threads= -s --sort --color --color= --dry-run --json
    --quiet-errors --ignore-errors --stats --no-preserve-root --help --version
)

# _gfind_primaries are the primaries and the operators that are words.
_gfind_primaries=(
    -not -a -and -o -or
    -daystart -follow -nowarn -regextype -warn
    -d -depth -files0-from -maxdepth -mindepth -mount -noleaf -xdev
    -ignore_readdir_race -noignore_readdir_race
    -amin -anewer -atime -cmin -cnewer -context -ctime -empty -false
    -fstype -gid -group -ilname -iname -inum -ipath -iregex -iwholename
    -links -lname -mmin -mtime -name -newer
    -neweraa -neweraB -newerac -neweram -newerat
    -newerBa -newerBB -newerBc -newerBm -newerBt
    -newerca -newercB -newercc -newercm -newerct
    -newerma -newermB -newermc -newermm -newermt
    -nouser -nogroup -path -perm -regex -readable -writable -executable
    -samefile -size -true -type -uid -used -user -wholename -xtype
    -delete -exec -execdir -fls -fprint -fprint0 -fprintf -ls -ok -okdir
    -print -print0 -printf -prune -quit
    -color -nocolor -noerror -exclude -glob -iglob -older -newer-than
    -limit -printjson -delete-dry-run
)

# _gfind_compgen_list sets COMPREPLY to the words of $1 (separated by
# spaces) that start with $2.
_gfind_compgen_list() {
    local IFS=$' \t\n'
    COMPREPLY=($(compgen -W "$1" -- "$2"))
}

# _gfind_comma_list completes the last element of a comma-separated list
# ($2) from the words of $1, as -type f,d and -D tree,opt take.
_gfind_comma_list() {
    local head='' last=$2
    if [[ $2 == *,* ]]; then
        head=${2%,*},
        last=${2##*,}
    fi
    local IFS=$' \t\n' w
    COMPREPLY=()
    for w in $(compgen -W "$1" -- "$last"); do
        COMPREPLY+=("$head$w")
    done
}

_gfind_files() {
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$1"))
}

_gfind() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local prev=''
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()

    # --color=WHEN: COMP_WORDBREAKS usually holds '=', which makes
    # "--color" "=" "WHEN" three words.
    if [[ $cur == --color=* ]]; then
        _gfind_compgen_list 'auto always never' "${cur#--color=}"
        COMPREPLY=("${COMPREPLY[@]/#/--color=}")
        return
    fi
    if [[ $prev == = ]] && ((COMP_CWORD > 1)) && [[ ${COMP_WORDS[COMP_CWORD - 2]} == --color ]]; then
        _gfind_compgen_list 'auto always never' "$cur"
        return
    fi
    if [[ $cur == = ]] && [[ $prev == --color ]]; then
        _gfind_compgen_list 'auto always never' ''
        return
    fi

    # Are the words before this one all leading options (so that this one
    # may be another), and has the expression begun?
    local i w lead=1 expr=0
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        if ((lead)); then
            case $w in
            -H | -L | -P | -O* | -s | --sort | --color | --dry-run | --json | \
                --quiet-errors | --ignore-errors | --stats | --no-preserve-root | --help | --version | \
                --threads=* | --color=* | -j[0-9]*)
                continue
                ;;
            -D | -j | --threads)
                ((i++))
                continue
                ;;
            = | auto | always | never)
                # the pieces of --color=WHEN split at '='
                [[ ${COMP_WORDS[i - 1]} == --color || ${COMP_WORDS[i - 1]} == = ]] && continue
                ;;
            esac
            lead=0
        fi
        case $w in
        -* | '(' | '!' | ',') expr=1 ;;
        esac
    done

    # Arguments of the option or primary before this word.
    case $prev in
    -type | -xtype)
        _gfind_comma_list 'b c d p f l s D' "$cur"
        return
        ;;
    -regextype)
        _gfind_compgen_list 'findutils-default ed emacs gnu-awk grep posix-awk awk posix-basic posix-egrep egrep posix-extended posix-minimal-basic sed' "$cur"
        return
        ;;
    -D)
        if ((lead)); then
            _gfind_comma_list 'exec opt rates search stat time tree all help' "$cur"
            return
        fi
        ;;
    --color)
        # only as --color WHEN when '=' is not a word break
        ;;
    -newer | -anewer | -cnewer | -samefile | -files0-from | -fprint | \
        -fprint0 | -fprintf | -fls | -newer[aBcm][aBcm])
        _gfind_files "$cur"
        return
        ;;
    -user)
        _gfind_compgen_list "$(compgen -u)" "$cur"
        return
        ;;
    -group)
        _gfind_compgen_list "$(compgen -g)" "$cur"
        return
        ;;
    -exec | -execdir | -ok | -okdir)
        local IFS=$'\n'
        COMPREPLY=($(compgen -c -- "$cur"))
        return
        ;;
    -fstype)
        local fs
        fs=$(awk '{ print $NF }' /proc/filesystems 2>/dev/null)
        _gfind_compgen_list "$fs" "$cur"
        return
        ;;
    -j | --threads | -maxdepth | -mindepth | -limit | -amin | -atime | -cmin | \
        -ctime | -mmin | -mtime | -used | -uid | -gid | -inum | -links | -size | \
        -perm | -name | -iname | -path | -ipath | -wholename | -iwholename | \
        -lname | -ilname | -regex | -iregex | -glob | -iglob | -printf | \
        -older | -newer-than | -context | -newer[aBcm]t)
        # a number, pattern, format or date: nothing to offer
        return
        ;;
    esac

    if [[ $cur == -* ]]; then
        if ((lead)); then
            _gfind_compgen_list "${_gfind_options[*]} ${_gfind_primaries[*]}" "$cur"
        else
            _gfind_compgen_list "${_gfind_primaries[*]}" "$cur"
        fi
        # --threads= and --color= take their value in the same word.
        [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
        return
    fi
    if ((!expr)); then
        # a starting point
        local IFS=$'\n'
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -d -- "$cur"))
        return
    fi
    _gfind_files "$cur"
}

complete -F _gfind gfind
