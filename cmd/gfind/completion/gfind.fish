# fish completion for gfind(1).
#
# Install: copy to ~/.config/fish/completions/gfind.fish (or
# /usr/share/fish/vendor_completions.d/gfind.fish).
#
# gfind's own options and GNU find's leading options, then every primary
# of the expression (fish's "old-style" options: one dash, long names),
# with arguments where they are obvious. cmd/gfind/doc_test.go checks
# that it knows every option and primary that gfind --help lists.

complete -c gfind -e

# __gfind_in_expr succeeds when the expression has begun before the
# current token: then a word is a file (an -exec argument, say); before
# it, a word is a starting point, completed as a directory.
function __gfind_in_expr
    set -l toks (commandline -opc)
    set -e toks[1]
    set -l skip 0
    for t in $toks
        if test $skip = 1
            set skip 0
            continue
        end
        switch $t
            case -H -L -P '-O*' -s --sort '--color*' --dry-run --json --quiet-errors --ignore-errors \
                --stats --no-preserve-root --help --version '--threads=*' '-j?*'
                continue
            case -D -j --threads
                set skip 1
                continue
            case '-*' '(' '!' ','
                return 0
        end
    end
    return 1
end
complete -c gfind -n 'not __gfind_in_expr' -f -a '(__fish_complete_directories (commandline -ct))'

# Leading options, before the starting points.
complete -c gfind -s H -d 'Follow symlinks named on the command line only'
complete -c gfind -s L -d 'Follow all symlinks'
complete -c gfind -s P -d 'Never follow symlinks (default)'
complete -c gfind -s D -x -a 'exec opt rates search stat time tree all help' -d 'Debug flags'
complete -c gfind -s O -x -a '0 1 2 3' -d 'Optimisation level'
complete -c gfind -s j -l threads -x -d 'Number of worker threads'
complete -c gfind -s s -l sort -d 'Visit entries in name order, depth first'
complete -c gfind -l color -x -a 'auto always never' -d 'Color names from LS_COLORS'
complete -c gfind -l dry-run -d 'Make -delete print what it would unlink'
complete -c gfind -l json -d 'Print JSON lines instead of names'
complete -c gfind -l quiet-errors -d 'Do not report permission errors'
complete -c gfind -l ignore-errors -d 'Hide permission errors and exit 0 despite them'
complete -c gfind -l stats -d 'Print a one-line summary on stderr'
complete -c gfind -l no-preserve-root -d 'Allow -delete on /'
complete -c gfind -l help -d 'Print the help and exit'
complete -c gfind -l version -d 'Print the version and exit'

# Operators that are words.
complete -c gfind -o not -d 'Negate'
complete -c gfind -o a -d 'And'
complete -c gfind -o and -d 'And'
complete -c gfind -o o -d 'Or'
complete -c gfind -o or -d 'Or'

# Positional options.
complete -c gfind -o daystart -d 'Measure times from the start of today'
complete -c gfind -o follow -d 'Follow all symlinks (as -L)'
complete -c gfind -o nowarn -d 'Turn warnings off'
complete -c gfind -o warn -d 'Turn warnings on'
complete -c gfind -o regextype -x -d 'Regular expression syntax' \
    -a 'findutils-default ed emacs gnu-awk grep posix-awk awk posix-basic posix-egrep egrep posix-extended posix-minimal-basic sed'

# Normal options.
complete -c gfind -o d -d 'Contents before the directory (as -depth)'
complete -c gfind -o depth -d 'Contents before the directory'
complete -c gfind -o files0-from -r -F -d 'Read NUL-terminated starting points from FILE'
complete -c gfind -o maxdepth -x -d 'Descend at most LEVELS'
complete -c gfind -o mindepth -x -d 'Act at least LEVELS down'
complete -c gfind -o mount -d 'Stay on this file system'
complete -c gfind -o xdev -d 'Stay on this file system'
complete -c gfind -o noleaf -d 'Accepted for compatibility'
complete -c gfind -o ignore_readdir_race -d 'Ignore files that vanish'
complete -c gfind -o noignore_readdir_race -d 'Report files that vanish'

# Tests.
for t in amin atime cmin ctime mmin mtime used
    complete -c gfind -o $t -x -d 'Time test (N can be +N, -N or N)'
end
complete -c gfind -o newer -r -F -d 'Modified more recently than FILE'
complete -c gfind -o anewer -r -F -d 'Accessed more recently than FILE was modified'
complete -c gfind -o cnewer -r -F -d 'Changed more recently than FILE was modified'
for x in a B c m
    for y in a B c m
        complete -c gfind -o newer$x$y -r -F -d "Time $x newer than time $y of FILE"
    end
    complete -c gfind -o newer{$x}t -x -d "Time $x newer than a date"
end
complete -c gfind -o samefile -r -F -d 'Same inode as FILE'
complete -c gfind -o context -x -d 'SELinux context (unsupported)'
complete -c gfind -o empty -d 'Empty file or directory'
complete -c gfind -o true -d 'Always true'
complete -c gfind -o false -d 'Always false'
complete -c gfind -o fstype -x -a '(string match -r "\S+\$" < /proc/filesystems)' -d 'File system type'
complete -c gfind -o uid -x -d 'Numeric owner'
complete -c gfind -o gid -x -d 'Numeric group'
complete -c gfind -o user -x -a '(__fish_complete_users)' -d 'Owner'
complete -c gfind -o group -x -a '(__fish_complete_groups)' -d 'Group'
complete -c gfind -o nouser -d 'Owner has no name'
complete -c gfind -o nogroup -d 'Group has no name'
complete -c gfind -o name -x -d 'Base name matches PATTERN'
complete -c gfind -o iname -x -d 'Base name matches PATTERN, ignoring case'
complete -c gfind -o path -x -d 'Path matches PATTERN'
complete -c gfind -o ipath -x -d 'Path matches PATTERN, ignoring case'
complete -c gfind -o wholename -x -d 'Path matches PATTERN'
complete -c gfind -o iwholename -x -d 'Path matches PATTERN, ignoring case'
complete -c gfind -o lname -x -d 'Symlink target matches PATTERN'
complete -c gfind -o ilname -x -d 'Symlink target matches PATTERN, ignoring case'
complete -c gfind -o regex -x -d 'Path matches REGEX'
complete -c gfind -o iregex -x -d 'Path matches REGEX, ignoring case'
complete -c gfind -o inum -x -d 'Inode number'
complete -c gfind -o links -x -d 'Number of hard links'
complete -c gfind -o perm -x -d 'Permission bits'
complete -c gfind -o readable -d 'Readable by the user'
complete -c gfind -o writable -d 'Writable by the user'
complete -c gfind -o executable -d 'Executable by the user'
complete -c gfind -o size -x -d 'Size N[bcwkMG]'
# __gfind_types prints the -type letters, after what the current token
# already holds up to its last comma (-type f,d takes a list).
function __gfind_types
    set -l head (string match -r '^.*,' -- (commandline -ct))
    printf "$head%s\t%s\n" b 'block device' c 'character device' d directory \
        p 'named pipe' f 'regular file' l 'symbolic link' s socket D door
end
complete -c gfind -o type -x -a '(__gfind_types)' -d 'File type'
complete -c gfind -o xtype -x -a '(__gfind_types)' -d 'File type, through symlinks'

# Actions.
complete -c gfind -o delete -d 'Delete the file'
complete -c gfind -o exec -x -a '(__fish_complete_subcommand)' -d 'Run COMMAND ;  or COMMAND {} +'
complete -c gfind -o execdir -x -a '(__fish_complete_subcommand)' -d 'Run COMMAND from the directory'
complete -c gfind -o ok -x -a '(__fish_complete_subcommand)' -d 'Run COMMAND after asking'
complete -c gfind -o okdir -x -a '(__fish_complete_subcommand)' -d 'Run COMMAND from the directory, after asking'
complete -c gfind -o fls -r -F -d 'List into FILE'
complete -c gfind -o fprint -r -F -d 'Print into FILE'
complete -c gfind -o fprint0 -r -F -d 'Print NUL-terminated into FILE'
complete -c gfind -o fprintf -r -F -d 'Print FORMAT into FILE'
complete -c gfind -o ls -d 'List as ls -dils'
complete -c gfind -o print -d 'Print the path'
complete -c gfind -o print0 -d 'Print the path, NUL-terminated'
complete -c gfind -o printf -x -d 'Print FORMAT'
complete -c gfind -o prune -d 'Do not descend'
complete -c gfind -o quit -d 'Stop at once'

# gfind extras.
complete -c gfind -o color -d 'Color names from LS_COLORS'
complete -c gfind -o nocolor -d 'Do not color names'
complete -c gfind -o noerror -d 'Do not report permission errors'
complete -c gfind -o exclude -d 'Never visit what EXPR matches'
complete -c gfind -o glob -x -d 'Relative path matches a ** glob'
complete -c gfind -o iglob -x -d 'Relative path matches a ** glob, ignoring case'
complete -c gfind -o older -x -a '1h 1d 7d 30d' -d 'Modified before now minus DURATION'
complete -c gfind -o newer-than -x -a '15m 1h 1d 7d' -d 'Modified after now minus DURATION'
complete -c gfind -o limit -x -d 'Stop after N matches'
complete -c gfind -o printjson -d 'Print one JSON object per line'
complete -c gfind -o delete-dry-run -d 'Print what -delete would unlink'
