// SPDX-License-Identifier: GPL-2.0
/*
 * readelf for the test guest: the two reports the ftrace selftests read
 * (7.3's dynevent/add_remove_uprobe.tc), for a 64-bit ELF file of the
 * guest's own byte order.  The guest's busybox has no readelf.
 *
 *   readelf -hW FILE   the header; only its "Entry point address:" line
 *   readelf -lW FILE   the program headers; only the LOAD lines, as
 *                      binutils prints them: type, offset, virtual and
 *                      physical address, file and memory size
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

static int usage(void)
{
	fprintf(stderr, "usage: readelf -hW|-lW FILE\n");
	return 2;
}

static int show_loads(FILE *f, const Elf64_Ehdr *eh)
{
	Elf64_Phdr ph;
	int i;

	printf("Program Headers:\n");
	for (i = 0; i < eh->e_phnum; i++) {
		if (fseek(f, eh->e_phoff + (long)i * eh->e_phentsize, SEEK_SET) ||
		    fread(&ph, sizeof(ph), 1, f) != 1)
			return 1;
		if (ph.p_type != PT_LOAD)
			continue;
		printf("  LOAD 0x%06lx 0x%016lx 0x%016lx 0x%06lx 0x%06lx %c%c%c 0x%lx\n",
		       (unsigned long)ph.p_offset, (unsigned long)ph.p_vaddr,
		       (unsigned long)ph.p_paddr, (unsigned long)ph.p_filesz,
		       (unsigned long)ph.p_memsz, ph.p_flags & PF_R ? 'R' : ' ',
		       ph.p_flags & PF_W ? 'W' : ' ', ph.p_flags & PF_X ? 'E' : ' ',
		       (unsigned long)ph.p_align);
	}
	return 0;
}

int main(int argc, char **argv)
{
	Elf64_Ehdr eh;
	FILE *f;
	int ret = 0;

	if (argc != 3 || (strcmp(argv[1], "-hW") && strcmp(argv[1], "-lW")))
		return usage();
	f = fopen(argv[2], "rb");
	if (!f || fread(&eh, sizeof(eh), 1, f) != 1 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64) {
		fprintf(stderr, "readelf: %s: not a 64-bit ELF file\n", argv[2]);
		return 1;
	}
	if (argv[1][1] == 'h')
		printf("  Entry point address:               0x%lx\n",
		       (unsigned long)eh.e_entry);
	else
		ret = show_loads(f, &eh);
	fclose(f);
	return ret;
}
