// latfs mounts a read-only passthrough of a directory that waits a fixed time before
// answering each LOOKUP, GETATTR, READDIR and READDIRPLUS request: a stand-in for a
// network file system (NFS, sshfs), where every such call is a round trip. Requests are
// served concurrently, so the latency delays each call without capping how many are in
// flight, as a network round trip does.
//
//	latfs [-latency 200us] [-timeout 1s] [-debug] SOURCE MOUNTPOINT
//
// It serves until it is sent SIGINT or SIGTERM, or the mount point is unmounted
// (fusermount3 -u MOUNTPOINT), and unmounts on the way out. It is its own module
// (bench/latfs/go.mod) so that the FUSE library is not a dependency of gfind.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// slowFS delays the calls a walk is made of; the rest (OPENDIR, RELEASEDIR, READ...)
// pass straight through, so the model is "a round trip per name resolved, per
// attribute fetched, per directory chunk listed".
type slowFS struct {
	fuse.RawFileSystem
	latency time.Duration
}

// wait sleeps in nanosleep(2), not time.Sleep: the Go runtime rounds a timer under a
// millisecond up to its poller's 1 ms resolution, which would make the default
// 200 µs a 1 ms+ round trip. The blocked thread gives up its P, so other requests go on.
func (s *slowFS) wait() {
	if s.latency > 0 {
		ts := syscall.NsecToTimespec(s.latency.Nanoseconds())
		for syscall.Nanosleep(&ts, &ts) == syscall.EINTR {
		}
	}
}

func (s *slowFS) Lookup(cancel <-chan struct{}, h *fuse.InHeader, name string, out *fuse.EntryOut) fuse.Status {
	s.wait()
	return s.RawFileSystem.Lookup(cancel, h, name, out)
}

func (s *slowFS) GetAttr(cancel <-chan struct{}, in *fuse.GetAttrIn, out *fuse.AttrOut) fuse.Status {
	s.wait()
	return s.RawFileSystem.GetAttr(cancel, in, out)
}

func (s *slowFS) ReadDir(cancel <-chan struct{}, in *fuse.ReadIn, out *fuse.DirEntryList) fuse.Status {
	s.wait()
	return s.RawFileSystem.ReadDir(cancel, in, out)
}

func (s *slowFS) ReadDirPlus(cancel <-chan struct{}, in *fuse.ReadIn, out *fuse.DirEntryList) fuse.Status {
	s.wait()
	return s.RawFileSystem.ReadDirPlus(cancel, in, out)
}

func main() {
	latency := flag.Duration("latency", 200*time.Microsecond, "delay added to every lookup, getattr and readdir request")
	timeout := flag.Duration("timeout", time.Second, "how long the kernel may cache entries and attributes (as bindfs's default)")
	debug := flag.Bool("debug", false, "log every FUSE request")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: latfs [-latency D] [-timeout D] [-debug] SOURCE MOUNTPOINT\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Arg(1), *latency, *timeout, *debug); err != nil {
		fmt.Fprintf(os.Stderr, "latfs: %v\n", err)
		os.Exit(1)
	}
}

func run(src, mnt string, latency, timeout time.Duration, debug bool) error {
	src, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	root, err := fs.NewLoopbackRoot(src)
	if err != nil {
		return err
	}
	opts := &fs.Options{EntryTimeout: &timeout, AttrTimeout: &timeout, NegativeTimeout: &timeout}
	opts.MountOptions = fuse.MountOptions{
		FsName:      src,
		Name:        "latfs",
		Options:     []string{"ro", "default_permissions"},
		AllowOther:  os.Geteuid() == 0,
		DirectMount: true,
		Debug:       debug,
	}
	server, err := fuse.NewServer(&slowFS{RawFileSystem: fs.NewNodeFS(root, opts), latency: latency}, mnt, &opts.MountOptions)
	if err != nil {
		return err
	}
	go server.Serve()
	if err := server.WaitMount(); err != nil {
		return err
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-sig
		// Unmount fails while a walk still holds the mount busy; retry until it
		// goes, as the caller asked for the mount to go away.
		for server.Unmount() != nil {
			time.Sleep(100 * time.Millisecond)
		}
	}()
	server.Wait()
	return nil
}
