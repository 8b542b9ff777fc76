/*
 * alloc_counter: an LD_PRELOAD library that counts heap allocations and frees
 * made inside a JACK client's process callback.
 *
 * It wraps jack_set_process_callback: the callback the client registers is
 * called through a trampoline that raises a thread-local flag for exactly the
 * duration of the client's callback. malloc, calloc, realloc, posix_memalign,
 * aligned_alloc, memalign, valloc and free are interposed and counted while
 * the flag is up. Calls made on the process thread outside the callback (by
 * libjack itself) are counted separately, for information.
 *
 * With ALLOC_COUNTER_TRACE=1 each counted call in the callback also prints a
 * backtrace to standard error (diagnostics only: printing it allocates).
 *
 * At exit the counts are written to the file named by ALLOC_COUNTER_FILE (or
 * to standard error) as one line of key=value pairs:
 *   callbacks=N callback_allocs=N callback_frees=N thread_allocs=N thread_frees=N
 *
 * Build: cc -O2 -shared -fPIC -o libcrosspoint_alloc_counter.so alloc_counter.c -ldl
 * Use:   ALLOC_COUNTER_FILE=/tmp/counts LD_PRELOAD=$PWD/libcrosspoint_alloc_counter.so crosspoint serve ...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

/* initial-exec: no lazy TLS allocation (which could call malloc) on first use. */
static __thread int in_callback __attribute__((tls_model("initial-exec")));
static __thread int on_process_thread __attribute__((tls_model("initial-exec")));

static __thread int tracing __attribute__((tls_model("initial-exec")));
static int trace = -1;

static atomic_ulong callbacks, callback_allocs, callback_frees, thread_allocs, thread_frees;

static void print_trace(const char *what) {
    if (trace < 0) { const char *t = getenv("ALLOC_COUNTER_TRACE"); trace = t && *t == '1'; }
    if (!trace || tracing) return;
    tracing = 1;
    void *frames[32];
    int count = backtrace(frames, 32);
    fprintf(stderr, "alloc_counter: %s in the process callback:\n", what);
    backtrace_symbols_fd(frames, count, 2);
    tracing = 0;
}

static inline void count_alloc(void) {
    if (in_callback) {
        atomic_fetch_add_explicit(&callback_allocs, 1, memory_order_relaxed);
        print_trace("allocation");
    } else if (on_process_thread) {
        atomic_fetch_add_explicit(&thread_allocs, 1, memory_order_relaxed);
    }
}

static inline void count_free(void) {
    if (in_callback) {
        atomic_fetch_add_explicit(&callback_frees, 1, memory_order_relaxed);
        print_trace("free");
    } else if (on_process_thread) {
        atomic_fetch_add_explicit(&thread_frees, 1, memory_order_relaxed);
    }
}

void *malloc(size_t size) { count_alloc(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { count_alloc(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { count_alloc(); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { count_alloc(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count_alloc(); return __libc_memalign(alignment, size); }
void *valloc(size_t size) { count_alloc(); return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    count_alloc();
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *out = pointer;
    return 0;
}
void free(void *pointer) {
    if (pointer) count_free();
    __libc_free(pointer);
}

typedef int (*process_callback)(uint32_t frames, void *argument);
struct wrapped { process_callback callback; void *argument; };
static struct wrapped wrapped[64];
static atomic_int wrapped_count;

static int trampoline(uint32_t frames, void *argument) {
    struct wrapped *w = argument;
    on_process_thread = 1;
    in_callback = 1;
    int result = w->callback(frames, w->argument);
    in_callback = 0;
    atomic_fetch_add_explicit(&callbacks, 1, memory_order_relaxed);
    return result;
}

int jack_set_process_callback(void *client, process_callback callback, void *argument) {
    static int (*real)(void *, process_callback, void *);
    if (!real) real = (int (*)(void *, process_callback, void *))dlsym(RTLD_NEXT, "jack_set_process_callback");
    if (!real) return -1;
    int slot = atomic_fetch_add(&wrapped_count, 1);
    if (!callback || slot >= 64) return real(client, callback, argument);
    wrapped[slot].callback = callback;
    wrapped[slot].argument = argument;
    return real(client, trampoline, &wrapped[slot]);
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("ALLOC_COUNTER_FILE");
    FILE *out = path ? fopen(path, "w") : stderr;
    if (!out) return;
    fprintf(out, "callbacks=%lu callback_allocs=%lu callback_frees=%lu thread_allocs=%lu thread_frees=%lu\n",
            atomic_load(&callbacks), atomic_load(&callback_allocs), atomic_load(&callback_frees),
            atomic_load(&thread_allocs), atomic_load(&thread_frees));
    if (path) fclose(out);
}
