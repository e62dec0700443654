// Non-variadic wrappers around libedit's el_set/el_get/history, which Swift cannot call,
// and accessors for the C stdio globals, which Swift 6 rejects as not concurrency-safe.
#ifndef CARFAB_CEDITLINE_SHIM_H
#define CARFAB_CEDITLINE_SHIM_H

#include <histedit.h>
#include <stdio.h>
#include <locale.h>
#include <langinfo.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <poll.h>
#include <errno.h>
#include <unistd.h>

/// Waits until `fd` is readable or one of carfab's stop signals arrives, without the race of
/// a signal landing just before a blocking read: the signals stay blocked except inside ppoll.
/// `pending` reports whether a stop signal has been caught. Returns 1 if readable, -1 with
/// errno EINTR if a signal is pending, -1 on error.
static inline int cf_wait_readable(int fd, int (*pending)(void)) {
    sigset_t stops, previous;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGHUP);
    sigprocmask(SIG_BLOCK, &stops, &previous);
    int result;
    if (pending()) {
        errno = EINTR;
        result = -1;
    } else {
        struct pollfd item = { .fd = fd, .events = POLLIN, .revents = 0 };
        sigset_t during = previous;
        sigdelset(&during, SIGINT);
        sigdelset(&during, SIGTERM);
        sigdelset(&during, SIGHUP);
        result = ppoll(&item, 1, NULL, &during);
        if (result > 0) result = 1;
        int saved = errno;
        if (result < 0 && saved != EINTR) result = -1;
        errno = saved;
    }
    int saved = errno;
    sigprocmask(SIG_SETMASK, &previous, NULL);
    errno = saved;
    return result;
}

static inline EditLine *cf_el_init(const char *program) { return el_init(program, stdin, stdout, stderr); }
static inline int cf_el_set_prompt_esc(EditLine *e, char *(*f)(EditLine *), char ignore) { return el_set(e, EL_PROMPT_ESC, f, ignore); }
static inline int cf_el_set_editor(EditLine *e, const char *mode) { return el_set(e, EL_EDITOR, mode); }
static inline int cf_el_set_signal(EditLine *e, int on) { return el_set(e, EL_SIGNAL, on); }
static inline int cf_el_set_hist(EditLine *e, History *h) { return el_set(e, EL_HIST, history, h); }
static inline int cf_el_addfn(EditLine *e, const char *name, const char *help, unsigned char (*f)(EditLine *, int)) {
    return el_set(e, EL_ADDFN, name, help, f);
}
static inline int cf_el_bind(EditLine *e, const char *key, const char *function) { return el_set(e, EL_BIND, key, function, NULL); }
static inline int cf_el_set_getcfn(EditLine *e, el_rfunc_t f) { return el_set(e, EL_GETCFN, f); }
static inline int cf_el_set_clientdata(EditLine *e, void *data) { return el_set(e, EL_CLIENTDATA, data); }
static inline void *cf_el_get_clientdata(EditLine *e) {
    void *data = NULL;
    el_get(e, EL_CLIENTDATA, &data);
    return data;
}

static inline int cf_history_setsize(History *h, HistEvent *ev, int size) { return history(h, ev, H_SETSIZE, size); }
static inline int cf_history_setunique(History *h, HistEvent *ev, int on) { return history(h, ev, H_SETUNIQUE, on); }
static inline int cf_history_enter(History *h, HistEvent *ev, const char *line) { return history(h, ev, H_ENTER, line); }
static inline int cf_history_load(History *h, HistEvent *ev, const char *path) { return history(h, ev, H_LOAD, path); }
static inline int cf_history_save(History *h, HistEvent *ev, const char *path) { return history(h, ev, H_SAVE, path); }

static inline FILE *cf_stdout(void) { return stdout; }

/// Columns of the terminal on `fd`, or 0 if unknown.
static inline int cf_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) == 0) return size.ws_col;
    return 0;
}

#endif
