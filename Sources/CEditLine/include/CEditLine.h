// libedit for carfab, linked into the (static) executable. Every libedit call goes through
// these non-variadic wrappers (Swift cannot call el_set/history, which are variadic).
#ifndef CARFAB_CEDITLINE_H
#define CARFAB_CEDITLINE_H

#include <histedit.h>
#include <spawn.h>
#include <stdio.h>


/// An editor reading standard input and drawing on standard output (`output` 1) or standard error (2).
EditLine *cf_el_init(const char *program, int output);
/// Ends the editor; the terminal's mode is put back unless carfab is in the background of
/// it (`cf_in_background`: ended there, the mode is the shell's).
void cf_el_end(EditLine *e);
/// 1 if the editor edits on a terminal (its input and output both are); 0 if it reads lines in
/// the terminal's own mode (libedit's "no tty", output to a file or pipe), where its mode is never set.
int cf_el_edits_terminal(EditLine *e);
/// 1 if standard input is a terminal whose foreground is another process group (carfab was
/// continued in the background, or `kill %1` ended it stopped); 0 otherwise, hung up included.
int cf_in_background(void);
const char *cf_el_gets(EditLine *e, int *count);
/// The line as libedit holds it, one wchar_t per character (no conversion through the locale).
const wchar_t *cf_el_wgets(EditLine *e, int *count);
const LineInfo *cf_el_line(EditLine *e);
const LineInfoW *cf_el_wline(EditLine *e);
int cf_el_insertstr(EditLine *e, const char *text);
/// Inserts wide characters at the cursor as they are (no key is read from them).
int cf_el_winsertstr(EditLine *e, const wchar_t *text);
void cf_el_deletestr(EditLine *e, int count);
void cf_el_reset(EditLine *e);
int cf_el_source(EditLine *e);
/// 1 if the editor's keys are vi's (an editrc's `bind -v`), else 0.
int cf_el_is_vi(EditLine *e);
int cf_el_set_prompt_esc(EditLine *e, char *(*prompt)(EditLine *), char ignore);
int cf_el_set_editor(EditLine *e, const char *mode);
int cf_el_set_signal(EditLine *e, int on);
int cf_el_set_hist(EditLine *e, HistoryW *h);
int cf_el_addfn(EditLine *e, const char *name, const char *help, unsigned char (*function)(EditLine *, int));
int cf_el_bind(EditLine *e, const char *key, const char *function);
int cf_el_set_getcfn(EditLine *e, el_rfunc_t function);
int cf_el_set_clientdata(EditLine *e, void *data);
void *cf_el_get_clientdata(EditLine *e);

/// The history is of wide characters, as the line is: an entry holds the escapes that stand for
/// bytes that are not UTF-8 (and NUL), which a multibyte entry cannot.
HistoryW *cf_history_init(void);
void cf_history_end(HistoryW *h);
int cf_history_setsize(HistoryW *h, HistEventW *ev, int size);
int cf_history_setunique(HistoryW *h, HistEventW *ev, int on);
int cf_history_enter(HistoryW *h, HistEventW *ev, const wchar_t *line);

/// Waits until `fd` is readable or a stop signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) or Ctrl-Z
/// (SIGTSTP, see `cf_catch_suspend`) is caught, without the race of a signal landing just
/// before a blocking wait: the signals stay blocked except inside ppoll. `pending` says whether
/// a stop signal has been caught. Returns 1 if readable, -1 with errno EINTR if a signal is
/// pending, -1 on error.
int cf_wait_readable(int fd, int (*pending)(void));

/// Notes SIGCONT (carfab resumed after Ctrl-Z and `fg`), so the prompt can take the terminal back.
void cf_watch_resume(void);
/// Whether carfab was resumed since the last call.
int cf_take_resumed(void);
/// Puts the terminal back in libedit's mode and redraws the line being typed (from the start
/// of the terminal's line, a carriage return written to `fd` first).
void cf_el_resume(EditLine *e, int fd);
/// While a line is read (`on` 1), notes Ctrl-Z (SIGTSTP) instead of stopping at once, so the
/// prompt gives the terminal back first (`cf_el_suspend`); `on` 0 puts its action back, and
/// stops now for a Ctrl-Z noted but not acted on. Nothing if SIGTSTP was ignored.
void cf_catch_suspend(int on);
/// Whether Ctrl-Z came since the last call.
int cf_take_suspended(void);
/// Stops carfab as Ctrl-Z does, the terminal first put back as the shell left it: libedit's
/// mode off and, if `bracketed`, bracketed paste off (written to `fd`); on again once continued
/// in the foreground. Continued in the background, stopped again until `fg`, unless `pending`
/// says a stop signal came (`kill %1`): then it returns at once, the terminal left to the shell.
void cf_el_suspend(EditLine *e, int fd, int bracketed, int (*pending)(void));

/// How many colours terminfo says terminal type `term` shows (its `colors`), or -1 if it shows
/// none, `term` is null or empty, or terminfo has no entry for it. Prints nothing.
int cf_terminal_colors(const char *term);
/// 1 if terminfo has an entry for terminal type `term` and it is not `dumb` (a pager can draw
/// on it); 0 if `term` is null, empty, `dumb` or unknown. Prints nothing.
int cf_terminal_known(const char *term);

/// Starts `argv` through posix_spawn(3) as a job of its own, as a shell starts a command: in
/// a process group of its own, made the foreground of terminal `tty` (so Ctrl-Z and Ctrl-C go
/// to it, not to carfab), when carfab is the foreground of its controlling terminal `tty`;
/// else in carfab's group. Returns 1 if it runs as a job, 0 if in carfab's group, -1 if it
/// could not be started.
int cf_spawn_job(pid_t *pid, const char *path, posix_spawn_file_actions_t *actions, char *const argv[],
                 char *const envp[], int tty);
/// Waits for `pid`, started by `cf_spawn_job` (`job` its result), to end; its wait status in
/// `status`. A job stopped by Ctrl-Z is stopped whole, carfab with it, and continued with
/// the terminal given back to it when carfab is; the terminal is carfab's again at the end.
/// Returns 0, or -1 on an error of waitpid(2). When `ending` (may be NULL) says so, as a wait
/// is interrupted: a job is sent SIGTERM, its whole group, and waited for; else -2 returns at
/// once, the pager not waited for (the caller ends it and waits again, `ending` NULL).
int cf_wait_job(pid_t pid, int job, int tty, int *status, int (*ending)(void));

/// Columns of the terminal on `fd`, or 0 if unknown.
int cf_terminal_columns(int fd);
/// The terminal's rows, or 0 if `fd` is not a terminal.
int cf_terminal_rows(int fd);
/// The columns libedit gives a character (wcwidth(3), which Swift's Glibc does not export).
int cf_wcwidth(wchar_t c);

/// In a process just forked: asks the kernel to SIGKILL it when its parent dies
/// (PR_SET_PDEATHSIG; Swift cannot call the variadic prctl), then checks that the parent is
/// still `parent` (it may have died before the request). Returns 1 if so, 0 if this process
/// is already an orphan and must end.
int cf_die_with_parent(int parent);

#endif
