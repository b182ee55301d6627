/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where abidep writes: one rule for every file it writes (every command's
 * -o, merge's DB, the tracer's usage DB, survey --save), whoever runs it,
 * root above all. The directory is reached without following a symlink
 * that a user other than root (or the caller) could have placed.
 *
 * The path is walked from "/" (a relative one from the current directory's
 * path), a component at a time, each opened with O_NOFOLLOW from the one
 * before it. A component that is a symlink is followed only when nobody
 * but root and the caller can have placed or replaced it: the symlink is
 * root's or the caller's, and so is the directory it is in, which group
 * and others cannot write, or which is sticky (there only an entry's owner
 * and the directory's may rename or remove it). That is the kernel's
 * fs.protected_symlinks reasoning, applied to every directory, not only
 * to sticky world-writable ones. Any other symlink is refused, by name.
 *
 * A directory that others can write is no reason to refuse a file written
 * through the walk's descriptor: it is created there under a new name
 * (O_EXCL, O_NOFOLLOW) and renamed onto its own, and rename() replaces a
 * symlink at that name, it does not follow it. SQLite, though, opens a DB
 * by name, and its -wal and -shm again later: for it (SAFE_STEADY) every
 * directory on the path must also be one that nobody but root and the
 * caller can write (sticky allowed), so that no symlink can appear on the
 * path after the walk; and the path given to SQLite is the walk's, with
 * the symlinks it followed resolved, for SQLITE_OPEN_NOFOLLOW.
 */
#ifndef ABIDEP_SAFEDIR_H
#define ABIDEP_SAFEDIR_H

#include <stddef.h>
#include <sys/types.h>

/* Create the missing directories, with the mode given (whatever the umask). */
#define SAFE_MKDIR	0x1
/* And every directory on the path writable by root and the caller alone. */
#define SAFE_STEADY	0x2

/* safe_dir_open()'s refusal (the message in its @err), apart from errors. */
#define SAFE_REFUSED	(-2)

/*
 * Open the directory @dir, where @file (for messages) is to be written, as
 * above: an O_PATH descriptor (for openat(), renameat(), fstat()). Its
 * path with the symlinks followed resolved in *@real (malloc'd) when @real
 * is not NULL. SAFE_REFUSED with a message in @err naming the component
 * that broke the rule and what to do; -1 with errno and a message in @err
 * when the walk failed (a directory missing, not one, not searchable).
 */
int safe_dir_open(const char *dir, const char *file, unsigned int flags, mode_t mode,
		  char **real, char *err, size_t errlen);

/*
 * The directory of @path, as safe_dir_open() (@what: @path's name in
 * messages, "the usage DB PATH"; NULL: @path), and @path's last component
 * in *@base (malloc'd). Also -1 (EISDIR) when @path names no file in its
 * directory ("", ".", "..", or ending in '/').
 */
int safe_parent_open(const char *path, const char *what, unsigned int flags, mode_t mode,
		     char **base, char **real, char *err, size_t errlen);

/*
 * A new file in @dirfd, ".@base.@tagXXXXXX" (six random characters), made
 * with O_CREAT | O_EXCL | O_NOFOLLOW, mode 0600, open for reading and
 * writing: mkstemp() in a directory descriptor. Its name in *@name
 * (malloc'd); -1 with errno.
 */
int safe_tmpfile(int dirfd, const char *base, const char *tag, char **name);

/* @mode less the process's umask: what open(2) or mkdir(2) would give. */
mode_t safe_umasked(mode_t mode);

/* "uid 107 (prometheus)", for messages, in @buf. */
const char *safe_who(uid_t uid, char *buf, size_t len);

#endif
