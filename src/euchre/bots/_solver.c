/*
 * euchre.bots._solver: the open-hand (double-dummy) euchre solver's hot loop.
 *
 * The public interface is euchre/bots/solver.py, which validates arguments and
 * calls solve() / solve_value() here; solver.py also holds a pure-Python copy of
 * this exact algorithm (keep the two in step).
 *
 * Algorithm
 * ---------
 * The payoff is a non-decreasing step function of the makers' final trick count,
 * so the value of a position is payoff[m + X] where X is the number of the
 * remaining tricks the makers take under best play. X is found with a few
 * boolean searches "can the makers take at least k of the remaining tricks?",
 * one per step of the payoff (binary search over the steps), as double-dummy
 * bridge solvers do. Each boolean search is an AND/OR tree search (alpha-beta
 * with a null window) with:
 *   - a transposition table at trick boundaries, keyed by the remaining hands and
 *     the leader, holding bounds [lo, hi] on the makers' future tricks; the bounds
 *     do not depend on k, on the tricks already taken, or on the payoff, so every
 *     search of one call shares them;
 *   - equivalent-card merging: two cards of one hand and one effective suit with
 *     no card between them still in play (in another playing hand or in the
 *     current trick) are interchangeable, so only one of them is searched;
 *   - move ordering: winners first, cheapest winner when following, low cards
 *     when the trick is lost or the partner has it.
 *
 * Card encoding inside the search
 * -------------------------------
 * Under trump t each card gets a bit index 8 * effective_suit + order, where
 * order is trump_rank for trumps (9=0 ... A=4, left=5, right=6, joker=7) and
 * the printed rank for other cards (9=0 ... A=5). A hand is a uint32_t: one byte
 * per effective suit, higher bit = higher card. Following suit is a byte mask and
 * the trick winner is the card with the highest strength():
 * 16 + order for trumps, 1 + order for the led suit, 0 otherwise.
 *
 * State: all mutable search state lives in a per-call Ctx (its transposition
 * table is allocated per call); the only globals are the encoding tables, filled
 * once at import and read-only afterwards. So the search runs with the GIL
 * released (Py_BEGIN_ALLOW_THREADS): a search in one thread does not stall the
 * others, and several threads may search at once.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NCARDS 25
#define JOKER 24
#define ALL_CARDS ((1u << NCARDS) - 1u)

/* ENC[t][card]: bit index of card under trump t. DEC[t][bit]: card, or -1. */
static signed char ENC[4][NCARDS];
static signed char DEC[4][32];

static void
init_tables(void)
{
    for (int t = 0; t < 4; t++) {
        memset(DEC[t], -1, sizeof DEC[t]);
        for (int c = 0; c < NCARDS; c++) {
            int suit, order;
            if (c == JOKER) {
                suit = t;
                order = 7;
            } else if (c == t * 6 + 2) { /* right bower */
                suit = t;
                order = 6;
            } else if (c == (3 - t) * 6 + 2) { /* left bower */
                suit = t;
                order = 5;
            } else if (c / 6 == t) {
                static const int trump_order[6] = {0, 1, -1, 2, 3, 4};
                suit = t;
                order = trump_order[c % 6];
            } else {
                suit = c / 6;
                order = c % 6;
            }
            ENC[t][c] = (signed char)(8 * suit + order);
            DEC[t][8 * suit + order] = (signed char)c;
        }
    }
}

static inline int
popcount32(uint32_t x)
{
    return __builtin_popcount(x);
}

static inline int
lowbit(uint32_t x)
{
    return __builtin_ctz(x);
}

/* ------------------------------------------------------------------------ */
/* Transposition table                                                       */

typedef struct {
    uint64_t a;     /* hands of seats 0 and 1 (encoded), 0 marks an empty slot */
    uint64_t b;     /* hands of seats 2 and 3 */
    uint8_t leader;
    uint8_t lo;     /* makers surely take at least lo of the remaining tricks */
    uint8_t hi;     /* ... and at most hi */
} TTEntry;

typedef struct {
    uint32_t hand[4]; /* encoded hands; 0 for seats that sit out */
    int next[4];      /* next playing seat clockwise */
    int nplay;        /* playing seats: cards per trick */
    int trump;
    int maker_side;
    TTEntry *tt;
    uint32_t tt_mask;
    long long nodes;
} Ctx;

static inline TTEntry *
tt_slot(const Ctx *c, uint64_t a, uint64_t b, int leader)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + (uint64_t)leader) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return &c->tt[(uint32_t)h & c->tt_mask];
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */

static inline int
strength(int trump, int bit, int led)
{
    int s = bit >> 3;
    if (s == trump)
        return 16 + (bit & 7);
    if (s == led)
        return 1 + (bit & 7);
    return 0;
}

/* Bits above `bit` within its suit's byte. */
static inline uint32_t
above_in_suit(int bit)
{
    uint32_t suit = 0xFFu << (bit & ~7);
    return suit & ~((2u << bit) - 1u); /* 2u << 31 is 0: well defined, gives 0 */
}

/* Legal cards of `seat`, one per class of equivalent cards, best-first.
 * Returns the number of moves written to out[]. */
static int
gen_moves(const Ctx *c, int seat, int np, int led, int wseat, int wkey, uint32_t trickbits,
          int *out)
{
    uint32_t h = c->hand[seat];
    uint32_t legal = h;
    if (np > 0) {
        uint32_t f = h & (0xFFu << (8 * led));
        if (f)
            legal = f;
    }
    uint32_t live = c->hand[0] | c->hand[1] | c->hand[2] | c->hand[3] | trickbits;
    uint32_t others = live & ~h;
    int partner_winning = np > 0 && ((wseat ^ seat) & 1) == 0;
    int score[8];
    int n = 0;
    while (legal) {
        int b = lowbit(legal);
        legal &= legal - 1;
        uint32_t above = above_in_suit(b);
        uint32_t next_live = live & above;
        /* The next higher live card is ours too: this card is equivalent to it. */
        if (next_live && (next_live & (0u - next_live) & h))
            continue;
        int s = b >> 3;
        int cost = (s == c->trump ? 16 : 0) + (b & 7);
        int sc;
        if (np == 0) {
            /* Lead: sure winners of a suit first (trumps first), then low cards. */
            sc = (others & above) == 0 ? 100 + cost : 40 - cost;
        } else if (partner_winning) {
            sc = 40 - cost;
        } else if (strength(c->trump, b, led) > wkey) {
            sc = 100 - cost; /* cheapest card that takes the lead in the trick */
        } else {
            sc = 40 - cost;
        }
        /* insertion sort, best first */
        int i = n++;
        while (i > 0 && score[i - 1] < sc) {
            score[i] = score[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        score[i] = sc;
        out[i] = b;
    }
    return n;
}

static int search_trick(Ctx *c, int leader, int k);
static int search(Ctx *c, int seat, int np, int led, int wseat, int wkey, uint32_t trickbits,
                  int k);

/* Play card `b` for `seat` and answer: can the makers then take >= k of the
 * remaining tricks (counting the current one)? The card is taken back before
 * returning. */
static inline int
play_and_search(Ctx *c, int seat, int np, int led, int wseat, int wkey, uint32_t trickbits,
                int b, int k)
{
    uint32_t bit = 1u << b;
    int nled = np == 0 ? b >> 3 : led;
    int key = strength(c->trump, b, nled);
    if (key > wkey) {
        wseat = seat;
        wkey = key;
    }
    int res;
    c->hand[seat] ^= bit;
    if (np + 1 == c->nplay)
        res = search_trick(c, wseat, k - (((wseat & 1) == c->maker_side) ? 1 : 0));
    else
        res = search(c, c->next[seat], np + 1, nled, wseat, wkey, trickbits | bit, k);
    c->hand[seat] ^= bit;
    return res;
}

/* Mid-trick (or trick-start) node: `seat` to act, np cards already played. */
static int
search(Ctx *c, int seat, int np, int led, int wseat, int wkey, uint32_t trickbits, int k)
{
    int moves[8];
    c->nodes++;
    int n = gen_moves(c, seat, np, led, wseat, wkey, trickbits, moves);
    int maximizing = (seat & 1) == c->maker_side;
    for (int i = 0; i < n; i++) {
        int res = play_and_search(c, seat, np, led, wseat, wkey, trickbits, moves[i], k);
        if (res == maximizing)
            return res; /* cutoff: makers found a way / defenders found a refutation */
    }
    return !maximizing;
}

/* Last trick: every playing seat holds one card; just play it out. */
static int
last_trick_to_makers(const Ctx *c, int leader)
{
    int b = lowbit(c->hand[leader]);
    int led = b >> 3;
    int wseat = leader, wkey = strength(c->trump, b, led);
    for (int s = c->next[leader]; s != leader; s = c->next[s]) {
        int key = strength(c->trump, lowbit(c->hand[s]), led);
        if (key > wkey) {
            wkey = key;
            wseat = s;
        }
    }
    return (wseat & 1) == c->maker_side;
}

/* Trick boundary: `leader` to lead. Can the makers take >= k of the remaining tricks? */
static int
search_trick(Ctx *c, int leader, int k)
{
    if (k <= 0)
        return 1;
    int r = popcount32(c->hand[leader]);
    if (k > r)
        return 0;
    if (r == 1) {
        c->nodes++;
        return last_trick_to_makers(c, leader);
    }
    uint64_t a = (uint64_t)c->hand[0] | ((uint64_t)c->hand[1] << 32);
    uint64_t b = (uint64_t)c->hand[2] | ((uint64_t)c->hand[3] << 32);
    TTEntry *e = tt_slot(c, a, b, leader);
    if (e->a == a && e->b == b && e->leader == leader) {
        if (e->lo >= k)
            return 1;
        if (e->hi < k)
            return 0;
    } else {
        e->a = a;
        e->b = b;
        e->leader = (uint8_t)leader;
        e->lo = 0;
        e->hi = (uint8_t)r;
    }
    int res = search(c, leader, 0, -1, leader, -1, 0, k);
    /* The slot may have been overwritten by the subtree: re-check before storing. */
    e = tt_slot(c, a, b, leader);
    if (!(e->a == a && e->b == b && e->leader == leader)) {
        e->a = a;
        e->b = b;
        e->leader = (uint8_t)leader;
        e->lo = 0;
        e->hi = (uint8_t)r;
    }
    if (res) {
        if (e->lo < k)
            e->lo = (uint8_t)k;
    } else {
        if (e->hi > k - 1)
            e->hi = (uint8_t)(k - 1);
    }
    return res;
}

/* ------------------------------------------------------------------------ */
/* Root                                                                      */

typedef struct {
    int seat;        /* seat to act */
    int leader;
    int np;          /* cards already in the current trick */
    int led;
    int wseat, wkey; /* current winner of the trick and its strength */
    uint32_t trickbits;
    int remaining;   /* tricks left, counting the current one */
    int maker_tricks;
    int payoff[6];
} Root;

/* Can the makers take >= k of the remaining tricks, after `move` (-1: none)? */
static int
root_ge(Ctx *c, const Root *p, int move, int k)
{
    if (move >= 0)
        return play_and_search(c, p->seat, p->np, p->led, p->wseat, p->wkey, p->trickbits, move,
                               k);
    if (p->np == 0)
        return search_trick(c, p->leader, k);
    return search(c, p->seat, p->np, p->led, p->wseat, p->wkey, p->trickbits, k);
}

/* Exact payoff value of the root (after `move`, or as it stands if move is -1). */
static int
root_value(Ctx *c, const Root *p, int move)
{
    int m = p->maker_tricks;
    int steps[6], nsteps = 0;
    for (int x = 1; x <= p->remaining; x++)
        if (p->payoff[m + x] > p->payoff[m + x - 1])
            steps[nsteps++] = x;
    /* Largest step reached: steps[0..lo] are reached, steps[hi+1..] are not. */
    int lo = -1, hi = nsteps - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (root_ge(c, p, move, steps[mid]))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo < 0 ? p->payoff[m] : p->payoff[m + steps[lo]];
}

/* ------------------------------------------------------------------------ */
/* Python glue                                                               */

static int
read_int_seq(PyObject *obj, const char *what, long *out, Py_ssize_t max_len, Py_ssize_t *len)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > max_len) {
        PyErr_Format(PyExc_ValueError, "%s: too many items (%zd)", what, n);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(seq);
    *len = n;
    return 0;
}

/* Parse and check the arguments, fill Ctx and Root (run_job allocates the table).
 * Returns 0, or -1 with an exception set. */
static int
setup(PyObject *args, Ctx *c, Root *p)
{
    PyObject *hands_o, *trick_o, *payoff_o;
    int trump, leader, out, maker_side, maker_tricks;
    if (!PyArg_ParseTuple(args, "OiiOiiiO", &hands_o, &trump, &leader, &trick_o, &out,
                          &maker_side, &maker_tricks, &payoff_o))
        return -1;
    long hands[4], trick[4], payoff[6];
    Py_ssize_t nh, nt, npay;
    if (read_int_seq(hands_o, "hands", hands, 4, &nh) < 0 ||
        read_int_seq(trick_o, "trick", trick, 4, &nt) < 0 ||
        read_int_seq(payoff_o, "payoff", payoff, 6, &npay) < 0)
        return -1;
    if (nh != 4 || npay != 6) {
        PyErr_SetString(PyExc_ValueError, "need 4 hands and 6 payoffs");
        return -1;
    }
    if (trump < 0 || trump > 3 || leader < 0 || leader > 3 || out < 0 || out > 15 ||
        (out >> leader) & 1 || maker_side < 0 || maker_side > 1 || maker_tricks < 0) {
        PyErr_SetString(PyExc_ValueError, "bad trump, leader, out, maker_side or maker_tricks");
        return -1;
    }
    if ((out & 5) == 5 || (out & 10) == 10) {
        PyErr_SetString(PyExc_ValueError, "each side needs a playing seat");
        return -1;
    }
    memset(c, 0, sizeof *c);
    memset(p, 0, sizeof *p);
    c->trump = trump;
    c->maker_side = maker_side;
    uint32_t seen = 0;
    for (int s = 0; s < 4; s++) {
        if (hands[s] < 0 || (unsigned long)hands[s] > ALL_CARDS || (seen & hands[s])) {
            PyErr_SetString(PyExc_ValueError, "hands must be disjoint masks of cards 0..24");
            return -1;
        }
        seen |= (uint32_t)hands[s];
        if ((out >> s) & 1)
            continue;
        c->nplay++;
        for (uint32_t m = (uint32_t)hands[s]; m; m &= m - 1)
            c->hand[s] |= 1u << ENC[trump][lowbit(m)];
    }
    for (int s = 0; s < 4; s++) {
        int t = (s + 1) % 4;
        while ((out >> t) & 1)
            t = (t + 1) % 4;
        c->next[s] = t;
    }
    if (nt >= c->nplay) {
        PyErr_SetString(PyExc_ValueError, "the trick is already complete");
        return -1;
    }
    int remaining = popcount32(c->hand[leader]) + (nt > 0 ? 1 : 0);
    p->leader = leader;
    p->np = (int)nt;
    p->led = -1;
    p->wseat = leader;
    p->wkey = -1;
    int seat = leader;
    int played[4] = {0, 0, 0, 0};
    for (Py_ssize_t i = 0; i < nt; i++) {
        if (trick[i] < 0 || trick[i] >= NCARDS || ((seen >> trick[i]) & 1)) {
            PyErr_SetString(PyExc_ValueError, "trick cards must be distinct cards not in a hand");
            return -1;
        }
        seen |= 1u << trick[i];
        int b = ENC[trump][trick[i]];
        if (i == 0)
            p->led = b >> 3;
        int key = strength(trump, b, p->led);
        if (key > p->wkey) {
            p->wkey = key;
            p->wseat = seat;
        }
        p->trickbits |= 1u << b;
        played[seat] = 1;
        seat = c->next[seat];
    }
    p->seat = seat;
    for (int s = 0; s < 4; s++) {
        if (!((out >> s) & 1) && popcount32(c->hand[s]) + played[s] != remaining) {
            PyErr_SetString(PyExc_ValueError, "playing seats hold unequal numbers of cards");
            return -1;
        }
    }
    if (maker_tricks + remaining > 5) {
        PyErr_SetString(PyExc_ValueError, "more than five tricks in the hand");
        return -1;
    }
    for (int i = 0; i < 6; i++) {
        if (i > 0 && payoff[i] < payoff[i - 1]) {
            PyErr_SetString(PyExc_ValueError, "payoff must be non-decreasing in tricks");
            return -1;
        }
        if (payoff[i] < INT_MIN / 2 || payoff[i] > INT_MAX / 2) {
            PyErr_SetString(PyExc_OverflowError, "payoff out of range");
            return -1;
        }
        p->payoff[i] = (int)payoff[i];
    }
    p->remaining = remaining;
    p->maker_tricks = maker_tricks;
    /* Trick-boundary positions per call are few: size the table to the depth. */
    int bits = remaining >= 5 ? 12 : remaining == 4 ? 10 : 8;
    c->tt_mask = (1u << bits) - 1u;
    c->tt = NULL;
    return 0;
}

/* One position's search, in pure C (callable without the GIL). */
typedef struct {
    Ctx c;
    Root p;
    int n;              /* moves searched (one per class of equivalent cards) */
    int moves[8];
    int value_of_bit[32];
    int value;          /* the position's value (solve_value) */
} Job;

/* Search every move of a job (all_moves) or the position itself. Returns 0, or -1
 * when out of memory. Touches no Python object: safe with the GIL released. */
static int
run_job(Job *j, int all_moves)
{
    Ctx *c = &j->c;
    c->tt = (TTEntry *)calloc((size_t)c->tt_mask + 1u, sizeof(TTEntry));
    if (c->tt == NULL)
        return -1;
    if (all_moves) {
        Root *p = &j->p;
        j->n = p->remaining > 0 ? gen_moves(c, p->seat, p->np, p->led, p->wseat, p->wkey,
                                             p->trickbits, j->moves)
                                : 0;
        for (int i = 0; i < j->n; i++)
            j->value_of_bit[j->moves[i]] = root_value(c, p, j->moves[i]);
    } else {
        j->value = root_value(c, &j->p, -1);
    }
    free(c->tt);
    c->tt = NULL;
    return 0;
}

/* The dict card -> value of a searched job (all_moves). */
static PyObject *
job_values(const Job *j)
{
    const Ctx *c = &j->c;
    const Root *p = &j->p;
    PyObject *result = PyDict_New();
    if (result == NULL)
        return NULL;
    /* Every legal card takes the value of its class's representative: the top
     * card of its run of equivalent cards, which is the one gen_moves keeps. */
    uint32_t h = c->hand[p->seat];
    uint32_t legal = h;
    if (p->np > 0 && (h & (0xFFu << (8 * p->led))))
        legal = h & (0xFFu << (8 * p->led));
    uint32_t live = c->hand[0] | c->hand[1] | c->hand[2] | c->hand[3] | p->trickbits;
    for (uint32_t m = p->remaining > 0 ? legal : 0; m; m &= m - 1) {
        int b = lowbit(m);
        int rep = b;
        for (;;) {
            uint32_t next_live = live & above_in_suit(rep);
            if (!(next_live && (next_live & (0u - next_live) & h)))
                break;
            rep = lowbit(next_live);
        }
        PyObject *key = PyLong_FromLong(DEC[c->trump][b]);
        PyObject *val = PyLong_FromLong(j->value_of_bit[rep]);
        if (key == NULL || val == NULL || PyDict_SetItem(result, key, val) < 0) {
            Py_XDECREF(key);
            Py_XDECREF(val);
            Py_DECREF(result);
            return NULL;
        }
        Py_DECREF(key);
        Py_DECREF(val);
    }
    return result;
}

PyDoc_STRVAR(solve_doc,
             "solve(hands, trump, leader, trick, out, maker_side, maker_tricks, payoff)\n"
             "-> (dict card -> value, nodes)\n\n"
             "Value of each legal card for the seat to act, in payoff units for the makers.");

static PyObject *
py_solve(PyObject *self, PyObject *args)
{
    (void)self;
    Job j;
    if (setup(args, &j.c, &j.p) < 0)
        return NULL;
    int rc;
    /* The search touches only C memory (the job and its table): let other threads run. */
    Py_BEGIN_ALLOW_THREADS
    rc = run_job(&j, 1);
    Py_END_ALLOW_THREADS
    if (rc < 0)
        return PyErr_NoMemory();
    PyObject *result = job_values(&j);
    if (result == NULL)
        return NULL;
    return Py_BuildValue("(NL)", result, j.c.nodes);
}

PyDoc_STRVAR(solve_many_doc,
             "solve_many(positions) -> list of (dict card -> value, nodes)\n\n"
             "solve() for each position, a tuple of solve()'s arguments. All the searches\n"
             "run in one stretch without the GIL, so other threads run meanwhile.");

static PyObject *
py_solve_many(PyObject *self, PyObject *arg)
{
    (void)self;
    PyObject *seq = PySequence_Fast(arg, "positions must be a sequence");
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    Job *jobs = (Job *)malloc((size_t)(n > 0 ? n : 1) * sizeof(Job));
    if (jobs == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "each position must be a tuple of solve() arguments");
            free(jobs);
            Py_DECREF(seq);
            return NULL;
        }
        if (setup(item, &jobs[i].c, &jobs[i].p) < 0) {
            free(jobs);
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    int rc = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n && rc == 0; i++)
        rc = run_job(&jobs[i], 1);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        free(jobs);
        return PyErr_NoMemory();
    }
    PyObject *out = PyList_New(n);
    if (out == NULL) {
        free(jobs);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *values = job_values(&jobs[i]);
        PyObject *pair = values == NULL ? NULL : Py_BuildValue("(NL)", values, jobs[i].c.nodes);
        if (pair == NULL) {
            free(jobs);
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, pair);
    }
    free(jobs);
    return out;
}

PyDoc_STRVAR(solve_value_doc,
             "solve_value(hands, trump, leader, trick, out, maker_side, maker_tricks, payoff)\n"
             "-> (value, nodes)\n\n"
             "Value of the position under best play by both sides (payoff units for the makers).");

static PyObject *
py_solve_value(PyObject *self, PyObject *args)
{
    (void)self;
    Job j;
    if (setup(args, &j.c, &j.p) < 0)
        return NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = run_job(&j, 0);
    Py_END_ALLOW_THREADS
    if (rc < 0)
        return PyErr_NoMemory();
    return Py_BuildValue("(iL)", j.value, j.c.nodes);
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, solve_doc},
    {"solve_many", py_solve_many, METH_O, solve_many_doc},
    {"solve_value", py_solve_value, METH_VARARGS, solve_value_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "euchre.bots._solver",
    "Open-hand euchre solver (C hot loop); use euchre.bots.solver instead.",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__solver(void)
{
    init_tables();
    return PyModule_Create(&module);
}
