// Package gitignore decides, as git does, whether a path in a work tree
// is ignored: the patterns of every .gitignore from the work tree's root
// down to the path's directory, of $GIT_DIR/info/exclude and of the file
// core.excludesFile names, matched with git's wildmatch (gitignore(5);
// git's dir.c and wildmatch.c are the reference).
//
// It is written here rather than taken from a library: the Go ones
// differ from git (sabhiram/go-gitignore turns patterns into regular
// expressions that do not follow wildmatch's "**" and bracket rules,
// go-git's matcher is built on filepath.Match and pulls in go-git), and
// the oracle the tests compare with is git itself.
//
// A tracked file is not ignored, whatever the patterns say, nor is a
// directory that holds one (as "git check-ignore" has it); the index is
// not read here but asked of git once per work tree, and only for the
// tracked files the rules ignore ("git ls-files --cached --ignored
// --exclude-standard"), the first time a path the rules ignore needs it.
// core.excludesFile is asked of "git config" once per work tree too.
// Without git, nothing is tracked and core.excludesFile is git's default.
//
// What it does not do: core.ignorecase (off by default on Linux; names
// match byte for byte), and $GIT_DIR, $GIT_WORK_TREE or core.worktree: a
// work tree is a directory that holds ".git" (a directory, or a file as
// in linked work trees and submodules).
//
// A Dir is one directory's place in the rules: its path in the work
// tree, its .gitignore's patterns, its parent's Dir, and whether it is
// ignored itself (then so is everything below it, and its .gitignore is
// never read, as in git). Dirs are made once per directory (Child) and
// shared by the goroutines of a walk; they are never changed once made.
package gitignore
