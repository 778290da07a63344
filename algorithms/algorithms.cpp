// The multicast algorithms as plain C++ (DESIGN.md: algorithms/): planners
// and the per-node logic that host/NI software threads run. No SystemC here,
// so every algorithm is unit-tested in microseconds and printed by
// `wormcast plan` without simulating.
namespace wormcast::algo {
const char* library_name() { return "wormcast_algo"; }
}  // namespace wormcast::algo
