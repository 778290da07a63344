// The wormcast tool's memory allocator: jemalloc (Debian's libjemalloc2),
// linked by CMakeLists.txt when WORMCAST_JEMALLOC is on (the default; off in
// the sanitizer build, whose allocator is ASan's).
//
// Why (docs/performance.md, "Fresh memory in huge pages"): on the reference
// virtual machine a first touch of a 4 KB page costs about 30 µs, so a run
// whose memory grows — a saturated network's source queues, a large
// network's set-up — spends much of its time in page faults. jemalloc reads
// this string at its initialisation: "thp:always" asks the kernel for
// transparent huge pages (madvise) on the memory it maps, so fresh memory
// arrives 2 MB per fault instead of 4 KB. The allocator changes no simulated
// behaviour (no result depends on an address; scripts/regression_runs.sh).
// The MALLOC_CONF environment variable still overrides it.
extern "C" {
// NOLINTNEXTLINE: the name and type jemalloc looks up (its compiled-in configuration).
const char* malloc_conf = "thp:always,metadata_thp:always";
}
