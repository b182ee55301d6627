/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Let librpm read an rpm database's SQLite file without writing anything
 * next to it: see rpmdb_ro.c.
 */
#ifndef ABIDEP_RPMDB_RO_H
#define ABIDEP_RPMDB_RO_H

/*
 * Until rpmdb_ro_end(), SQLite opens every file under @dir read-only, and
 * the database itself as immutable. Around each librpm call; not nested.
 */
void rpmdb_ro_begin(const char *dir);
void rpmdb_ro_end(void);

#endif
