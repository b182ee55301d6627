// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: the tracer pinned under PIN_DIR (maps, programs, links), so
 * that it counts with no process; opened again by --sync, --status and
 * --stop, which may be run by a later abidep than the one that pinned it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "exit.h"
#include "abidep.skel.h"
#include "trace.h"

/* The pinned maps' names, by map index (trace.h). */
static const char *const map_names[NR_MAPS] = {
	"watched", "usage", "files", "stats", "events", "slots", "dirs", "ranks",
};

/* Maps a tracer pinned by an older abidep lacks: its programs use none. */
static bool optional_map(int i)
{
	return i == M_SLOTS || i == M_DIRS || i == M_RANKS;
}

/*
 * The pinned maps, for --sync, --stop and --status. Two such processes (a
 * timer's sync and a hand-run one) take turns: each makes the slots what its
 * own view of the files wants.
 */
int open_pinned(struct tracer *tr)
{
	char path[128];
	int i;

	tr->pin_lock = open(PIN_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tr->pin_lock >= 0 && flock(tr->pin_lock, LOCK_EX)) {
		fprintf(stderr, "abidep: cannot lock %s: %s\n", PIN_DIR, strerror(errno));
		return EXIT_FAIL;
	}
	for (i = 0; i < NR_MAPS; i++) {
		snprintf(path, sizeof(path), PIN_DIR "/%s", map_names[i]);
		tr->fd[i] = bpf_obj_get(path);
		if (tr->fd[i] < 0 && optional_map(i) && errno == ENOENT &&
		    !access(PIN_DIR "/usage", F_OK))
			continue;
		if (tr->fd[i] < 0) {
			fprintf(stderr, "abidep: no pinned tracer (%s: %s); start one with 'abidep trace --pin'\n",
				path, strerror(errno));
			return EXIT_PINNED;
		}
	}
	return tr->fd[M_SLOTS] < 0 ? EXIT_OK : slots_map(&tr->slots, tr->fd[M_SLOTS]);
}

int pin_all(struct tracer *tr)
{
	struct bpf_map *map;
	char path[256];
	int i;

	if (mkdir(PIN_DIR, 0700) && errno != EEXIST) {
		fprintf(stderr, "abidep: cannot create %s: %s\n", PIN_DIR, strerror(errno));
		return EXIT_FAIL;
	}
	bpf_object__for_each_map(map, tr->skel->obj) {
		/*
		 * internal maps (.rodata, .data.clock): bpffs takes no dotted
		 * names; not needed. The first usage_keys was replaced by the
		 * first sync: the hash counted into now is pinned below.
		 */
		if (strchr(bpf_map__name(map), '.') || map == tr->skel->maps.usage_keys)
			continue;
		snprintf(path, sizeof(path), PIN_DIR "/%s", bpf_map__name(map));
		if (bpf_map__pin(map, path))
			goto fail;
		chmod(path, 0600);
	}
	/* The hash counted into now (trace_usage.c). */
	snprintf(path, sizeof(path), PIN_DIR "/usage_keys");
	if (bpf_obj_pin(tr->usage_fd, path))
		goto fail;
	chmod(path, 0600);
	/*
	 * Pinned links keep the programs attached when this process exits.
	 * The programs of the set not loaded (fexit or kprobe) have no link.
	 */
	for (i = 0; i < tr->skel->skeleton->prog_cnt; i++) {
		struct bpf_program *prog = *tr->skel->skeleton->progs[i].prog;
		struct bpf_link *link = *tr->skel->skeleton->progs[i].link;

		if (!link)
			continue;
		snprintf(path, sizeof(path), PIN_DIR "/prog_%s", bpf_program__name(prog));
		if (bpf_program__pin(prog, path))
			goto fail;
		chmod(path, 0600);
		snprintf(path, sizeof(path), PIN_DIR "/link_%s", bpf_program__name(prog));
		if (bpf_link__pin(link, path))
			goto fail;
		chmod(path, 0600);
	}
	return EXIT_OK;
fail:
	fprintf(stderr, "abidep: cannot pin %s: %s\n", path, strerror(errno));
	return EXIT_FAIL;
}

/* Everything under PIN_DIR is ours: unpinning the links detaches. */
int unpin_all(void)
{
	struct dirent *d;
	DIR *dir = opendir(PIN_DIR);
	int ret = EXIT_OK;

	if (!dir)
		return errno == ENOENT ? EXIT_OK : EXIT_FAIL;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.' && unlinkat(dirfd(dir), d->d_name, 0)) {
			fprintf(stderr, "abidep: cannot unpin %s/%s: %s\n", PIN_DIR,
				d->d_name, strerror(errno));
			ret = EXIT_FAIL;
		}
	closedir(dir);
	if (rmdir(PIN_DIR) && errno != ENOENT) {
		fprintf(stderr, "abidep: cannot remove %s: %s\n", PIN_DIR, strerror(errno));
		ret = EXIT_FAIL;
	}
	return ret;
}
