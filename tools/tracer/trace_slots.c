// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: the slots map, the direct-mapped index of the watched hash
 * that the programs look at first (bpf/abidep.h), kept by userspace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <bpf/bpf.h>

#include "exit.h"
#include "trace.h"
#include "util.h"

/*
 * The slots map (bpf/abidep.h), an index of the watched hash, which stays
 * the whole truth. Written through a shared mapping while the programs read
 * it, in an order that keeps every watched file findable and never gives
 * the programs a wrong one:
 * - a new file's slot says "more" (unless it names the file) before the file
 *   goes into the hash: slots_more();
 * - in slots_sync(), after a refresh, a slot being changed says "more" first
 *   and until the next sync, and is emptied (ino 0) before its file_id
 *   changes, its ino set last. A removed file's slot may name it until then:
 *   only a file still open on the removed node could reach it, and it is
 *   that file.
 */
void slots_more(struct slot_index *si, __u64 ino)
{
	struct abidep_slot *s;

	if (!si->map)
		return;
	s = &si->map[ino % si->n];
	if (__atomic_load_n(&s->ino, __ATOMIC_ACQUIRE) != ino)
		__atomic_store_n(&s->more, 1, __ATOMIC_SEQ_CST);
}

/*
 * Make every slot what the present files want. A file keeps the slot that
 * names it while it is watched (processes of one pinned tracer know the
 * files in different orders, and would otherwise hand slots back and forth);
 * a free slot goes to the first other file that falls there.
 */
void slots_sync(struct slot_index *si, const struct wfile *files, int nfiles)
{
	struct abidep_slot *want = si->want;
	__u32 i, pass;

	if (!si->map)
		return;
	memset(want, 0, si->n * sizeof(*want));
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < (__u32)nfiles; i++) {
			const struct wfile *wf = &files[i];
			const struct abidep_slot *s;
			struct abidep_slot *w;
			bool holder;

			if (!wf->ino)
				continue;
			s = &si->map[wf->ino % si->n];
			w = &want[wf->ino % si->n];
			holder = s->ino == wf->ino && s->file_id == wf->id;
			if (holder != !pass)
				continue;
			if (!w->ino) {
				w->ino = wf->ino;
				w->file_id = wf->id;
			} else {
				w->more = 1;
			}
		}
	for (i = 0; i < si->n; i++) {
		struct abidep_slot *s = &si->map[i];

		if (s->ino != want[i].ino || s->file_id != want[i].file_id) {
			/*
			 * "more" first, and kept until the next sync: a program
			 * that read the old ino reads "more" after it, maybe
			 * only once all of this is done.
			 */
			__atomic_store_n(&s->more, 1, __ATOMIC_SEQ_CST);
			__atomic_store_n(&s->ino, 0, __ATOMIC_SEQ_CST);
			__atomic_store_n(&s->file_id, want[i].file_id, __ATOMIC_SEQ_CST);
			__atomic_store_n(&s->ino, want[i].ino, __ATOMIC_SEQ_CST);
		} else if (s->more != want[i].more) {
			__atomic_store_n(&s->more, want[i].more, __ATOMIC_SEQ_CST);
		}
	}
}

/* Map the slots map @fd (loaded, or pinned) into @si. */
int slots_map(struct slot_index *si, int fd)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	void *p;

	if (bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    info.max_entries > ABIDEP_SLOTS || !info.max_entries ||
	    (info.max_entries & (info.max_entries - 1))) {
		fprintf(stderr, "abidep: the slots map is not one abidep made\n");
		return EXIT_LOAD;
	}
	si->n = info.max_entries;
	p = mmap(NULL, si->n * sizeof(struct abidep_slot), PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "abidep: cannot map the slots map: %s\n", strerror(errno));
		return EXIT_LOAD;
	}
	si->map = p;
	si->want = xcalloc(si->n, sizeof(*si->want));
	return EXIT_OK;
}

void slots_unmap(struct slot_index *si)
{
	if (si->map)
		munmap(si->map, si->n * sizeof(*si->map));
	free(si->want);
	memset(si, 0, sizeof(*si));
}
