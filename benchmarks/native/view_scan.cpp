// Native reference for Suite 1's contiguous 8-byte scans (issue 15's "within 1.3x of native" target).
//
// Builds the same shape of data as StringHeap (Layout.CONTIGUOUS, lengths 8): 10M views of 8-byte values whose
// first 4 bytes are one of 20 random prefixes, 1% of rows equal to the target value, then times two branch-free
// counting kernels over the 16-byte views (Arrow Utf8View layout, little-endian):
//   equal      : the row's two view words equal the constant's (all values are inline, so this decides);
//   startsWith : a 6-byte constant: length >= 6, view prefix equal, and view bytes 4..5 equal.
// Not part of the Maven build: an optional measuring tool, like the DuckDB CLI. Build and run:
//   g++ -O3 -march=native -o /tmp/view_scan benchmarks/native/view_scan.cpp && /tmp/view_scan [rows] [rounds]
// It prints ns/row (minimum and median of the rounds) for each kernel.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct View {
    uint64_t word0;  // length | bytes 0..3 << 32
    uint64_t word1;  // inline bytes 4..11, zero-padded
};

uint64_t next_random(uint64_t& state) {  // splitmix64
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

View inline_view(const uint8_t* bytes, uint32_t length) {
    uint8_t padded[16] = {0};
    std::memcpy(padded + 4, bytes, length);
    View v;
    std::memcpy(&v.word0, padded, 8);
    std::memcpy(&v.word1, padded + 8, 8);
    v.word0 = (v.word0 & ~0xFFFFFFFFULL) | length;
    return v;
}

__attribute__((noinline)) int64_t count_equal(const View* views, int64_t rows, View constant) {
    int64_t count = 0;
    for (int64_t i = 0; i < rows; i++) {
        count += (views[i].word0 == constant.word0) & (views[i].word1 == constant.word1);
    }
    return count;
}

__attribute__((noinline)) int64_t count_starts_with6(const View* views, int64_t rows, View constant) {
    // All rows are inline here; a long row would need its buffer only when the prefix matches.
    uint64_t prefix = constant.word0 >> 32;
    uint64_t next2 = constant.word1 & 0xFFFF;
    int64_t count = 0;
    for (int64_t i = 0; i < rows; i++) {
        uint64_t w0 = views[i].word0;
        count += ((w0 & 0xFFFFFFFF) >= 6) & ((w0 >> 32) == prefix) & ((views[i].word1 & 0xFFFF) == next2);
    }
    return count;
}

template <typename Kernel>
void time_kernel(const char* name, Kernel kernel, int64_t rows, int rounds) {
    std::vector<double> ns;
    int64_t result = 0;
    for (int r = 0; r < rounds; r++) {
        auto start = std::chrono::steady_clock::now();
        result = kernel();
        auto end = std::chrono::steady_clock::now();
        ns.push_back(std::chrono::duration<double, std::nano>(end - start).count() / rows);
    }
    std::sort(ns.begin(), ns.end());
    std::printf("%-10s rows=%lld matches=%lld ns/row min=%.3f median=%.3f\n", name, (long long)rows,
                (long long)result, ns.front(), ns[ns.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
    int64_t rows = argc > 1 ? std::atoll(argv[1]) : 10000000;
    int rounds = argc > 2 ? std::atoi(argv[2]) : 21;
    uint64_t state = 0x5EED0001ULL;
    uint8_t prefixes[20][4];
    for (auto& p : prefixes) {
        uint64_t r = next_random(state);
        std::memcpy(p, &r, 4);
    }
    uint8_t target[8];
    std::memcpy(target, prefixes[0], 4);
    uint64_t r = next_random(state);
    std::memcpy(target + 4, &r, 4);
    View* views = static_cast<View*>(std::aligned_alloc(64, sizeof(View) * rows));
    for (int64_t i = 0; i < rows; i++) {
        uint8_t value[8];
        if (next_random(state) % 100 == 0) {
            std::memcpy(value, target, 8);
        } else {
            std::memcpy(value, prefixes[next_random(state) % 20], 4);
            uint64_t tail = next_random(state);
            std::memcpy(value + 4, &tail, 4);
        }
        views[i] = inline_view(value, 8);
    }
    View equal = inline_view(target, 8);
    View starts = inline_view(target, 6);
    time_kernel("equal", [&] { return count_equal(views, rows, equal); }, rows, rounds);
    time_kernel("startsWith", [&] { return count_starts_with6(views, rows, starts); }, rows, rounds);
    std::free(views);
    return 0;
}
