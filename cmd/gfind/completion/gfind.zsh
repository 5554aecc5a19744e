#compdef gfind
#
# zsh completion for gfind(1).
#
# Install: copy this file, renamed _gfind, into a directory of $fpath before
# compinit runs (for example ~/.zfunc, with fpath=(~/.zfunc $fpath) in
# ~/.zshrc). It replaces the "find gfind" line of zsh's own _find.
#
# gfind's own options and GNU find's leading options, then every primary
# of the expression, with arguments where they are obvious.
# cmd/gfind/doc_test.go checks that it knows every option and primary
# that gfind --help lists.

local curcontext="$curcontext" ret=1
local -a state line args

# -type and -xtype take one letter or a comma-separated list (-type f,d).
local types='_values -s , "file type" "b[block device]" "c[character device]" "d[directory]" "p[named pipe]" "f[regular file]" "l[symbolic link]" "s[socket]" "D[door]"'
local regextypes='(findutils-default ed emacs gnu-awk grep posix-awk awk posix-basic posix-egrep egrep posix-extended posix-minimal-basic sed)'
local x y

# -newerXY: X and Y are a, B, c or m; Y t takes a date instead of a file.
for x in a B c m; do
  for y in a B c m; do
    args+=("*-newer${x}${y}:reference file:_files")
  done
  args+=("*-newer${x}t:date and time:")
done

_arguments -C -s $args \
  '(-L -P)-H[follow symlinks named on the command line only]' \
  '(-H -P)-L[follow all symlinks]' \
  '(-H -L)-P[never follow symlinks]' \
  '-D[debug flags]:debug flags:_values -s , flag exec opt rates search stat time tree all help' \
  '-O+[optimisation level]:level:(0 1 2 3)' \
  '(-j --threads)'{-j+,--threads=}'[number of worker threads]:number of threads:' \
  '(-s --sort)'{-s,--sort}'[visit entries in name order, depth first]' \
  '--color=-[color names from LS_COLORS]::when:(auto always never)' \
  '--dry-run[make -delete print what it would unlink]' \
  '--json[print JSON lines instead of names]' \
  '--quiet-errors[do not report permission errors]' \
  '--ignore-errors[hide permission errors and exit 0 despite them]' \
  '--stats[print a one-line summary on stderr]' \
  '--no-preserve-root[allow -delete on /]' \
  '(- *)--help[print the help and exit]' \
  '(- *)--version[print the version and exit]' \
  '*-not' '*-a' '*-and' '*-o' '*-or' \
  '*-daystart' '*-follow' '*-nowarn' '*-warn' \
  "*-regextype:regular expression syntax:$regextypes" \
  '*-d' '*-depth' \
  '*-files0-from:file of NUL-terminated starting points:_files' \
  '*-maxdepth:maximum depth:' \
  '*-mindepth:minimum depth:' \
  '*-mount' '*-xdev' '*-noleaf' \
  '*-ignore_readdir_race' '*-noignore_readdir_race' \
  '*-amin:access time (minutes):' \
  '*-atime:access time (days):' \
  '*-cmin:status change time (minutes):' \
  '*-ctime:status change time (days):' \
  '*-mmin:modification time (minutes):' \
  '*-mtime:modification time (days):' \
  '*-used:days from status change to access:' \
  '*-newer:file to compare (modification time):_files' \
  '*-anewer:file to compare (access time):_files' \
  '*-cnewer:file to compare (status change time):_files' \
  '*-samefile:file to compare inode:_files' \
  '*-context:SELinux context (unsupported):' \
  '*-empty' '*-true' '*-false' \
  '*-fstype:file system type:_file_systems' \
  '*-uid:numeric user ID:' \
  '*-gid:numeric group ID:' \
  '*-user:user:_users' \
  '*-group:group:_groups' \
  '*-nouser' '*-nogroup' \
  '*-name:name pattern:' \
  '*-iname:name pattern (ignoring case):' \
  '*-path:path pattern:' \
  '*-ipath:path pattern (ignoring case):' \
  '*-wholename:path pattern:' \
  '*-iwholename:path pattern (ignoring case):' \
  '*-lname:link target pattern:' \
  '*-ilname:link target pattern (ignoring case):' \
  '*-regex:regular expression:' \
  '*-iregex:regular expression (ignoring case):' \
  '*-inum:inode number:' \
  '*-links:number of links:' \
  '*-perm:mode:_file_modes' \
  '*-readable' '*-writable' '*-executable' \
  '*-size:size N[bcwkMG]:' \
  "*-type:file type:$types" \
  "*-xtype:file type (through symlinks):$types" \
  '*-delete' \
  '*-exec:program: _command_names -e:*[;+]::program arguments: _normal' \
  '*-execdir:program: _command_names -e:*[;+]::program arguments: _normal' \
  '*-ok:program: _command_names -e:*\;::program arguments: _normal' \
  '*-okdir:program: _command_names -e:*\;::program arguments: _normal' \
  '*-fls:output file:_files' \
  '*-fprint:output file:_files' \
  '*-fprint0:output file:_files' \
  '*-fprintf:output file:_files:output format:' \
  '*-ls' '*-print' '*-print0' \
  '*-printf:output format:' \
  '*-prune' '*-quit' \
  '*-color' '*-nocolor' '*-noerror' \
  '*-exclude' \
  '*-glob:glob pattern (** crosses directories):' \
  '*-iglob:glob pattern (ignoring case):' \
  '*-older:duration (7d, 36h, 15m):' \
  '*-newer-than:duration (7d, 36h, 15m):' \
  '*-limit:number of matches:' \
  '*-printjson' \
  '*-delete-dry-run' \
  '*:starting point:_files -/' \
  && ret=0

return ret
