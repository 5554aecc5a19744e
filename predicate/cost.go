package predicate

// Expected costs of one evaluation, in the units of bfs's optimizer
// (a test on the name costs about as much as a few hundred instructions;
// a stat about a thousand times that on a warm cache).
const (
	costName  = 1.0
	costType  = 1.0 // d_type is free on ext4, xfs, btrfs and tmpfs
	costPrint = 10.0
	costStat  = 1000.0 // one fstatat(2) on a warm cache, relative to a name test
)
