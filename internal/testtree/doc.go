// Package testtree builds small, deterministic directory trees for tests
// (the bfs "stddirs" idea), shared by the walker, predicate, output and
// cmd/gfind tests.
//
// Make creates a fresh root under t.TempDir and builds each requested Part
// in its own subdirectory of the root, named after the part:
//
//	root/
//	  basic/  links/  weird/  deep/  wide/  perms/
//
// so parts can be combined freely and a test can name a part's files as
// filepath.Join(root, testtree.Basic.Name, "a", "a.txt").
//
// Every file, directory and symbolic link built by Basic, Links,
// WeirdNames, Wide and Perms has its access and modification time set to
// Epoch, and the root too, so -newer, -mtime and -printf %t give the same
// answer on every run. Deep sets the times of its directories as well.
// Directory sizes, inode numbers and ctimes are not controlled.
//
// The path from the temporary directory down to the root is made
// searchable by everyone (t.TempDir creates it 0700) so that a command run
// through AsNobody can reach the tree. The temporary directory itself
// (os.TempDir, normally /tmp) must already be searchable by others.
package testtree
