// The C++ baseline of benchmarks/stacksquared_bench.py: a plain memoised depth-first search for
// the StacksSquared single-stack question, as a small stand-alone program would write it.
//
// Moves in row-major order (mover cell ascending, then destination cell ascending), a hash set of
// the visited top-card layouts, and the two connectivity prunings (the compatibility graph of the
// tops and the shared-line graph of the occupied cells must stay connected).  A node is a move
// played; a move into a layout seen before counts as a node and goes no further.  This is the
// tree the project's kernel searches with row-major moves, node for node.
//
// Input, one deal a line: "rows cols card0 card1 ...", cards as rank-major indices 0..51
// (AC AD AH AS 2C ... KS).  Output, one line a deal: "solved|unsolvable|limit nodes nanoseconds",
// the nanoseconds of CPU time the search took (the thread's clock: steady on a busy machine).
// An optional argument caps the nodes of each search ("limit" when reached).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <sstream>
#include <string>
#include <unordered_set>

namespace {

struct Solver {
    int rows, cols, n;
    std::string tops;  // one char a cell: card index + 1, 0 = empty
    std::unordered_set<std::string> seen;
    long long nodes = 0, max_nodes = -1;
    bool stopped = false;

    bool same_line(int a, int b) const { return a / cols == b / cols || a % cols == b % cols; }

    static bool compatible(int x, int y) {
        int rx = x / 4, ry = y / 4;
        return x % 4 == y % 4 || (rx - ry <= 1 && ry - rx <= 1);
    }

    // Whether every occupied cell is reached from the first through the given relation.
    template <class Linked>
    bool connected(Linked linked) const {
        int cells[52], todo[52], count = 0, open = 0, reached = 1;
        char done[52] = {0};
        for (int i = 0; i < n; ++i)
            if (tops[i]) cells[count++] = i;
        done[0] = 1;
        todo[open++] = 0;
        while (open > 0) {
            int a = cells[todo[--open]];
            for (int j = 0; j < count; ++j)
                if (!done[j] && linked(a, cells[j])) {
                    done[j] = 1;
                    ++reached;
                    todo[open++] = j;
                }
        }
        return reached == count;
    }

    bool dead() const {
        return !connected([&](int a, int b) { return compatible(tops[a] - 1, tops[b] - 1); }) ||
               !connected([&](int a, int b) { return same_line(a, b); });
    }

    // True when one stack is reachable; ``stacks`` stacks are on the grid.
    bool search(int stacks) {
        for (int a = 0; a < n; ++a) {
            if (!tops[a]) continue;
            for (int b = 0; b < n; ++b) {
                if (b == a || !tops[b] || !same_line(a, b) || !compatible(tops[a] - 1, tops[b] - 1))
                    continue;
                if (max_nodes >= 0 && nodes >= max_nodes) {
                    stopped = true;
                    return false;
                }
                char covered = tops[b];
                tops[b] = tops[a];
                tops[a] = 0;
                ++nodes;
                bool found = false;
                if (seen.insert(tops).second)
                    found = stacks - 1 == 1 || (!dead() && search(stacks - 1));
                tops[a] = tops[b];
                tops[b] = covered;
                if (found || stopped) return found;
            }
        }
        return false;
    }
};

long long cpu_ns() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    long long max_nodes = argc > 1 ? std::atoll(argv[1]) : -1;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        Solver s;
        s.max_nodes = max_nodes;
        if (!(in >> s.rows >> s.cols)) continue;
        s.n = s.rows * s.cols;
        s.tops.assign(s.n, 0);
        for (int i = 0; i < s.n; ++i) {
            int card;
            in >> card;
            s.tops[i] = static_cast<char>(card + 1);
        }
        long long start = cpu_ns();
        bool solved = s.n == 1 || (!s.dead() && s.search(s.n));
        long long ns = cpu_ns() - start;
        std::printf("%s %lld %lld\n", solved ? "solved" : s.stopped ? "limit" : "unsolvable", s.nodes,
                    ns);
    }
    return 0;
}
