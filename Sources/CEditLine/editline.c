#define _GNU_SOURCE
#include "CEditLine.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <term.h>

EditLine *cf_el_init(const char *program, int output) {
    return el_init(program, stdin, output == 2 ? stderr : stdout, stderr);
}
void cf_el_end(EditLine *e) { el_end(e); }
const char *cf_el_gets(EditLine *e, int *count) { return el_gets(e, count); }
const wchar_t *cf_el_wgets(EditLine *e, int *count) { return el_wgets(e, count); }
const LineInfo *cf_el_line(EditLine *e) { return el_line(e); }
const LineInfoW *cf_el_wline(EditLine *e) { return el_wline(e); }
int cf_el_insertstr(EditLine *e, const char *text) { return el_insertstr(e, text); }
int cf_el_winsertstr(EditLine *e, const wchar_t *text) { return el_winsertstr(e, text); }
void cf_el_deletestr(EditLine *e, int count) { el_deletestr(e, count); }
void cf_el_reset(EditLine *e) { el_reset(e); }
int cf_el_source(EditLine *e) { return el_source(e, NULL); }
int cf_el_is_vi(EditLine *e) {
    const char *mode = NULL;
    return el_get(e, EL_EDITOR, &mode) == 0 && mode != NULL && strcmp(mode, "vi") == 0;
}
int cf_el_set_prompt_esc(EditLine *e, char *(*prompt)(EditLine *), char ignore) { return el_set(e, EL_PROMPT_ESC, prompt, ignore); }
int cf_el_set_editor(EditLine *e, const char *mode) { return el_set(e, EL_EDITOR, mode); }
int cf_el_set_signal(EditLine *e, int on) { return el_set(e, EL_SIGNAL, on); }
int cf_el_set_hist(EditLine *e, History *h) { return el_set(e, EL_HIST, history, h); }
int cf_el_addfn(EditLine *e, const char *name, const char *help, unsigned char (*function)(EditLine *, int)) {
    return el_set(e, EL_ADDFN, name, help, function);
}
int cf_el_bind(EditLine *e, const char *key, const char *function) { return el_set(e, EL_BIND, key, function, NULL); }
int cf_el_set_getcfn(EditLine *e, el_rfunc_t function) { return el_set(e, EL_GETCFN, function); }
int cf_el_set_clientdata(EditLine *e, void *data) { return el_set(e, EL_CLIENTDATA, data); }
void *cf_el_get_clientdata(EditLine *e) {
    void *data = NULL;
    el_get(e, EL_CLIENTDATA, &data);
    return data;
}

History *cf_history_init(void) { return history_init(); }
void cf_history_end(History *h) { history_end(h); }
int cf_history_setsize(History *h, HistEvent *ev, int size) { return history(h, ev, H_SETSIZE, size); }
int cf_history_setunique(History *h, HistEvent *ev, int on) { return history(h, ev, H_SETUNIQUE, on); }
int cf_history_enter(History *h, HistEvent *ev, const char *line) { return history(h, ev, H_ENTER, line); }

static volatile sig_atomic_t resumed;

static void note_resumed(int signo) {
    (void)signo;
    resumed = 1;
}

void cf_watch_resume(void) {
    struct sigaction action;
    action.sa_handler = note_resumed;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    sigaction(SIGCONT, &action, NULL);
}

int cf_take_resumed(void) {
    int was = resumed;
    resumed = 0;
    return was;
}

static volatile sig_atomic_t suspended;
static struct sigaction suspend_before;
static int suspend_caught;

static void note_suspended(int signo) {
    (void)signo;
    suspended = 1;
}

void cf_catch_suspend(int on) {
    if (on) {
        struct sigaction action;
        action.sa_handler = note_suspended;
        sigemptyset(&action.sa_mask);
        action.sa_flags = 0;
        suspended = 0;
        sigaction(SIGTSTP, &action, &suspend_before);
        suspend_caught = 1;
        /* Started with Ctrl-Z ignored (no job control): it stays ignored. */
        if (suspend_before.sa_handler == SIG_IGN) cf_catch_suspend(0);
    } else if (suspend_caught) {
        sigaction(SIGTSTP, &suspend_before, NULL);
        suspend_caught = 0;
        /* Caught after the last key was read: acted on now, as if it came a moment later. */
        if (suspended) {
            suspended = 0;
            raise(SIGTSTP);
        }
    }
}

int cf_take_suspended(void) {
    int was = suspended;
    suspended = 0;
    return was;
}

/* libedit's refresh draws the prompt and line from the cursor on, as if it stood at the start
   of the line: after a shell's `fg` it does (below the shell's lines), after a stop no shell
   saw (SIGSTOP, SIGCONT) it stands after the line. A carriage return first, so the line is
   drawn once where it begins, never a second copy beside the first. */
static void redraw(EditLine *e, int fd) {
    (void)!write(fd, "\r", 1);
    el_set(e, EL_REFRESH);
}

void cf_el_suspend(EditLine *e, int fd, int bracketed) {
    /* As readline does: the shell gets the terminal as it was before the prompt (its own
       mode, pasted text not bracketed), then SIGTSTP's own action stops carfab. */
    if (bracketed) (void)!write(fd, "\033[?2004l", 8);
    el_set(e, EL_PREP_TERM, 0);
    struct sigaction stop, caught;
    stop.sa_handler = SIG_DFL;
    sigemptyset(&stop.sa_mask);
    stop.sa_flags = 0;
    sigaction(SIGTSTP, &stop, &caught);
    sigset_t only, before;
    sigemptyset(&only);
    sigaddset(&only, SIGTSTP);
    sigprocmask(SIG_UNBLOCK, &only, &before);
    raise(SIGTSTP);
    /* Continued (`fg`), or never stopped: the kernel drops a SIGTSTP whose action is the
       default in an orphaned process group (carfab leading its own session: `ssh -t host
       carfab`, `tmux new carfab`), and no SIGCONT comes. Either way the prompt takes the
       terminal back here, as readline does; a SIGCONT after it does so again (cf_el_resume). */
    sigprocmask(SIG_SETMASK, &before, NULL);
    /* This stop's own SIGCONT (its handler ran before raise returned): the line is drawn once,
       here, not again by the next read (cf_take_resumed). Never stopped: it is still on the screen. */
    int continued = resumed;
    resumed = 0;
    sigaction(SIGTSTP, &caught, NULL);
    if (bracketed) (void)!write(fd, "\033[?2004h", 8);
    el_set(e, EL_PREP_TERM, 1);
    if (continued) redraw(e, fd);
}

void cf_el_resume(EditLine *e, int fd) {
    /* The shell gave the terminal back in its own mode: libedit's raw mode again, and the line redrawn. */
    el_set(e, EL_PREP_TERM, 0);
    el_set(e, EL_PREP_TERM, 1);
    redraw(e, fd);
}

int cf_wait_readable(int fd, int (*pending)(void)) {
    sigset_t stops, previous;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGHUP);
    sigaddset(&stops, SIGQUIT);
    sigaddset(&stops, SIGTSTP);
    sigprocmask(SIG_BLOCK, &stops, &previous);
    int result;
    if (pending() || suspended) {
        errno = EINTR;
        result = -1;
    } else {
        struct pollfd item = { .fd = fd, .events = POLLIN, .revents = 0 };
        sigset_t during = previous;
        sigdelset(&during, SIGINT);
        sigdelset(&during, SIGTERM);
        sigdelset(&during, SIGHUP);
        sigdelset(&during, SIGQUIT);
        sigdelset(&during, SIGTSTP);
        result = ppoll(&item, 1, NULL, &during);
        if (result > 0) result = 1;
    }
    int saved = errno;
    sigprocmask(SIG_SETMASK, &previous, NULL);
    errno = saved;
    return result;
}

int cf_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) == 0) return size.ws_col;
    return 0;
}

int cf_wcwidth(wchar_t c) { return wcwidth(c); }

int cf_terminal_rows(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) == 0) return size.ws_row;
    return 0;
}

int cf_die_with_parent(int parent) {
    // Checked after the request: a parent that died before it made it would never send the signal.
    (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
    return getppid() == parent;
}

int cf_terminal_colors(const char *term) {
    if (term == NULL || *term == 0) return -1;
    /* Read the entry into a terminal of our own, then drop it: libedit loads its own later. */
    TERMINAL *previous = set_curterm(NULL);
    int status = 0;
    int colors = -1;
    if (setupterm((char *)term, 1, &status) == 0) {
        colors = tigetnum("colors");
        del_curterm(cur_term);
    }
    set_curterm(previous);
    return colors > 0 ? colors : -1;
}

int cf_terminal_known(const char *term) {
    if (term == NULL || *term == 0 || strcmp(term, "dumb") == 0) return 0;
    /* As cf_terminal_colors: a terminal of our own, dropped again. */
    TERMINAL *previous = set_curterm(NULL);
    int status = 0;
    int known = setupterm((char *)term, 1, &status) == 0;
    if (known) del_curterm(cur_term);
    set_curterm(previous);
    return known;
}
