/*
 * alloc_counter: an LD_PRELOAD library that counts heap allocations, frees
 * and locks made inside a JACK client's callbacks that may run on the
 * process thread.
 *
 * It wraps jack_set_process_callback: the callback the client registers is
 * called through a trampoline that raises a thread-local flag for exactly the
 * duration of the client's callback. malloc, calloc, realloc, posix_memalign,
 * aligned_alloc, memalign, valloc and free are interposed and counted while
 * the flag is up. Calls made on the process thread outside the callback (by
 * libjack itself) are counted separately, for information.
 *
 * It also wraps the callbacks JACK2 runs on the process thread on its failure
 * path (JackClient::Error calls jack_error, then the shutdown callback):
 * jack_on_shutdown, jack_on_info_shutdown, jack_set_error_function and
 * jack_set_info_function. Those are counted as "other" callbacks wherever
 * they run, with what they allocate, free and lock.
 *
 * Locks: pthread_mutex_lock/trylock, pthread_rwlock_rdlock/wrlock and the
 * futex system call (how a contended Swift Mutex waits) are counted inside
 * any wrapped callback. An uncontended Swift Mutex makes no call at all and
 * cannot be seen here: the compiler's @_noLocks checks cover those.
 *
 * With ALLOC_COUNTER_TRACE=1 each counted call in the callback also prints a
 * backtrace to standard error (diagnostics only: printing it allocates).
 *
 * At exit the counts are written to the file named by ALLOC_COUNTER_FILE (or
 * to standard error) as one line of key=value pairs:
 *   callbacks=N callback_allocs=N callback_frees=N callback_locks=N
 *   thread_allocs=N thread_frees=N
 *   other_callbacks=N other_on_process_thread=N other_allocs=N other_frees=N other_locks=N
 *
 * Build: cc -O2 -shared -fPIC -o libcrosspoint_alloc_counter.so alloc_counter.c -ldl
 * Use:   ALLOC_COUNTER_FILE=/tmp/counts LD_PRELOAD=$PWD/libcrosspoint_alloc_counter.so crosspoint serve ...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

/* initial-exec: no lazy TLS allocation (which could call malloc) on first use. */
static __thread int in_callback __attribute__((tls_model("initial-exec")));
static __thread int on_process_thread __attribute__((tls_model("initial-exec")));

/* Inside a wrapped shutdown, info-shutdown, error or info callback. */
static __thread int in_other __attribute__((tls_model("initial-exec")));

static __thread int tracing __attribute__((tls_model("initial-exec")));
static int trace = -1;

static atomic_ulong callbacks, callback_allocs, callback_frees, callback_locks, thread_allocs, thread_frees;
static atomic_ulong other_callbacks, other_on_process_thread, other_allocs, other_frees, other_locks;

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
    if (in_other) {
        atomic_fetch_add_explicit(&other_allocs, 1, memory_order_relaxed);
        print_trace("allocation");
    } else if (in_callback) {
        atomic_fetch_add_explicit(&callback_allocs, 1, memory_order_relaxed);
        print_trace("allocation");
    } else if (on_process_thread) {
        atomic_fetch_add_explicit(&thread_allocs, 1, memory_order_relaxed);
    }
}

static inline void count_free(void) {
    if (in_other) {
        atomic_fetch_add_explicit(&other_frees, 1, memory_order_relaxed);
        print_trace("free");
    } else if (in_callback) {
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

static inline void count_lock(void) {
    if (in_other) {
        atomic_fetch_add_explicit(&other_locks, 1, memory_order_relaxed);
        print_trace("lock");
    } else if (in_callback) {
        atomic_fetch_add_explicit(&callback_locks, 1, memory_order_relaxed);
        print_trace("lock");
    }
}

extern int __pthread_mutex_lock(pthread_mutex_t *);
extern int __pthread_mutex_trylock(pthread_mutex_t *);
extern int __pthread_rwlock_rdlock(pthread_rwlock_t *);
extern int __pthread_rwlock_wrlock(pthread_rwlock_t *);

int pthread_mutex_lock(pthread_mutex_t *m) { count_lock(); return __pthread_mutex_lock(m); }
int pthread_mutex_trylock(pthread_mutex_t *m) { count_lock(); return __pthread_mutex_trylock(m); }
int pthread_rwlock_rdlock(pthread_rwlock_t *l) { count_lock(); return __pthread_rwlock_rdlock(l); }
int pthread_rwlock_wrlock(pthread_rwlock_t *l) { count_lock(); return __pthread_rwlock_wrlock(l); }

/* syscall(2), for futex waits; found before main, while one thread runs. */
static long (*real_syscall)(long, ...);
__attribute__((constructor)) static void find_syscall(void) {
    real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
}
long syscall(long number, ...) {
    va_list list;
    va_start(list, number);
    long a = va_arg(list, long), b = va_arg(list, long), c = va_arg(list, long);
    long d = va_arg(list, long), e = va_arg(list, long), f = va_arg(list, long);
    va_end(list);
    if (number == SYS_futex) count_lock();
    if (!real_syscall) { errno = ENOSYS; return -1; }
    return real_syscall(number, a, b, c, d, e, f);
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

/* The other callbacks: each runs with in_other raised, wherever it runs. */
static inline void other_begins(void) {
    in_other = 1;
    atomic_fetch_add_explicit(&other_callbacks, 1, memory_order_relaxed);
    if (on_process_thread) atomic_fetch_add_explicit(&other_on_process_thread, 1, memory_order_relaxed);
}

typedef void (*shutdown_callback)(void *argument);
typedef void (*info_shutdown_callback)(int code, const char *reason, void *argument);
typedef void (*message_function)(const char *message);
struct wrapped_shutdown { shutdown_callback callback; info_shutdown_callback info; void *argument; };
static struct wrapped_shutdown shutdowns[64];
static atomic_int shutdown_count;

static void shutdown_trampoline(void *argument) {
    struct wrapped_shutdown *w = argument;
    other_begins();
    w->callback(w->argument);
    in_other = 0;
}

static void info_shutdown_trampoline(int code, const char *reason, void *argument) {
    struct wrapped_shutdown *w = argument;
    other_begins();
    w->info(code, reason, w->argument);
    in_other = 0;
}

void jack_on_shutdown(void *client, shutdown_callback callback, void *argument) {
    static void (*real)(void *, shutdown_callback, void *);
    if (!real) real = (void (*)(void *, shutdown_callback, void *))dlsym(RTLD_NEXT, "jack_on_shutdown");
    if (!real) return;
    int slot = atomic_fetch_add(&shutdown_count, 1);
    if (!callback || slot >= 64) { real(client, callback, argument); return; }
    shutdowns[slot].callback = callback;
    shutdowns[slot].argument = argument;
    real(client, shutdown_trampoline, &shutdowns[slot]);
}

void jack_on_info_shutdown(void *client, info_shutdown_callback callback, void *argument) {
    static void (*real)(void *, info_shutdown_callback, void *);
    if (!real) real = (void (*)(void *, info_shutdown_callback, void *))dlsym(RTLD_NEXT, "jack_on_info_shutdown");
    if (!real) return;
    int slot = atomic_fetch_add(&shutdown_count, 1);
    if (!callback || slot >= 64) { real(client, callback, argument); return; }
    shutdowns[slot].info = callback;
    shutdowns[slot].argument = argument;
    real(client, info_shutdown_trampoline, &shutdowns[slot]);
}

static _Atomic(message_function) error_function, info_function;

static void error_trampoline(const char *message) {
    message_function f = atomic_load(&error_function);
    other_begins();
    if (f) f(message);
    in_other = 0;
}

static void info_trampoline(const char *message) {
    message_function f = atomic_load(&info_function);
    other_begins();
    if (f) f(message);
    in_other = 0;
}

void jack_set_error_function(message_function function) {
    static void (*real)(message_function);
    if (!real) real = (void (*)(message_function))dlsym(RTLD_NEXT, "jack_set_error_function");
    if (!real) return;
    atomic_store(&error_function, function);
    real(function ? error_trampoline : function);
}

void jack_set_info_function(message_function function) {
    static void (*real)(message_function);
    if (!real) real = (void (*)(message_function))dlsym(RTLD_NEXT, "jack_set_info_function");
    if (!real) return;
    atomic_store(&info_function, function);
    real(function ? info_trampoline : function);
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("ALLOC_COUNTER_FILE");
    FILE *out = path ? fopen(path, "w") : stderr;
    if (!out) return;
    fprintf(out, "callbacks=%lu callback_allocs=%lu callback_frees=%lu callback_locks=%lu thread_allocs=%lu thread_frees=%lu "
                 "other_callbacks=%lu other_on_process_thread=%lu other_allocs=%lu other_frees=%lu other_locks=%lu\n",
            atomic_load(&callbacks), atomic_load(&callback_allocs), atomic_load(&callback_frees),
            atomic_load(&callback_locks), atomic_load(&thread_allocs), atomic_load(&thread_frees),
            atomic_load(&other_callbacks), atomic_load(&other_on_process_thread), atomic_load(&other_allocs),
            atomic_load(&other_frees), atomic_load(&other_locks));
    if (path) fclose(out);
}
