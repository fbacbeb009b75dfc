/* sqtt-dump: decode SQTT captures into the packet stream (pipeline.md). */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "capture-dump.h"
#include "cli.h"
#include "out.h"
#include "rgp.h"
#include "util.h"

static const struct cli cli = {
	.synopsis = {
		"[-ah] [--counts] [-e event] [-k kernel] [--types type[,type ...]] [-x dir] [-X dir]",
		"\t[--dispatch n] [--base [id=]addr] capture ...",
		"--raw [--se n] [-c code --base addr [--name kernel]] stream ...",
		"--rgp out.rgp [-e event] [-k kernel] [--dispatch n] [--base [id=]addr] capture",
		NULL
	},
	.options = "all/a counts types extract/x streams/X rgp " CAPTURE_OPTIONS,
	.help =
	    "Decode RDNA3 SQTT captures into the packet stream.\n"
	    "\n"
	    "  -a, --all          NOP and UNKNOWN tokens too\n"
	    "      --counts       counts per event and token type instead of tokens\n"
	    "  -e, --event N      only trace buffer N\n"
	    "  -k, --kernel NAME  only buffers that traced kernel NAME\n"
	    "      --dispatch N   only the buffers of dispatch N (rocprofv3's dispatch id)\n"
	    "      --base ID=ADDR a rocprofv3 run: code object ID is loaded at ADDR\n"
	    "      --types T,...  only these token types (AMD names, e.g. INST,WAVE_END)\n"
	    "  -x, --extract DIR  write each program's code object as DIR/NAME.hsaco\n"
	    "  -X, --streams DIR  write each selected buffer's raw stream as DIR/EVENT.att\n"
	    "      --rgp FILE     write the capture as a Radeon GPU Profiler file instead\n"
	    "      --raw          the captures are raw stream files\n"
	    "      --se N         raw: the shader engine (default 0)\n"
	    "  -c, --code FILE    raw: the code object; --base ADDR its load address;\n"
	    "      --name KERNEL  its kernel name\n"
	    "  -h, --help         this text\n"
	    "      --version      the version\n"
	    "A capture is a tinygrad profile pickle (.pkl, .pkl.gz), a rocprofv3 --att run\n"
	    "directory (or one sqtt-encode -d wrote), an RGP file (.rgp), or with --raw a\n"
	    "stream file.\n"
	    "See sqtt-dump(1).\n",
};

static struct capture_opts copt;

static int
selected_event(const struct capture *c, const struct event *e, void *arg)
{
	(void)arg;
	return capture_selects(&copt, c, e, 0);
}

/* A selection that matched none of the nev buffers (of path, if not NULL). */
static void __attribute__((noreturn))
selects_none(const char *path, size_t nev)
{
	char why[1024];

	capture_selects_none_why(&copt, path, nev, why, sizeof(why));
	fflush(stdout);
	errx(2, "%s", why);
}

/* The error of the dump: what was written before it goes out first. */
static void __attribute__((noreturn))
fatal(const struct capture_dump *d)
{
	out_flush();
	fflush(stdout);
	errx(2, "%s", d->err);
}

static int
run(int argc, char *argv[])
{
	static struct capture_dump d;
	struct capture c;
	char why[4096];
	const char *opt_rgp = NULL;
	unsigned offset = 0;	/* events of earlier captures on the command line */
	int ch, i;
	size_t j;

	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case 'a':
			d.f.all = 1;
			break;
		case OPT_COUNTS:
			d.f.counts = 1;
			break;
		case OPT_TYPES:
			if (capture_dump_types(&d, optarg) != 0)
				errx(2, "%s", d.err);
			break;
		case 'x':
			d.xdir = optarg;
			break;
		case 'X':
			d.sdir = optarg;
			break;
		case OPT_RGP:
			opt_rgp = optarg;
			break;
		default:
			if (!capture_option(&copt, ch, optarg))
				cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 1, opt_rgp != NULL ? 1 : -1);
	if (opt_rgp != NULL) {
		if (d.f.all || d.f.counts || d.f.types_given || d.xdir || d.sdir)
			cli_usage(&cli);
		if (capture_open(&c, argv[0], &copt, why, sizeof(why)) != 0) {
			fflush(stdout);
			errx(2, "%s", why);
		}
		for (j = 0; j < c.nev && !capture_selects(&copt, &c, &c.ev[j], 0); j++)
			;
		if (j == c.nev)
			selects_none(argv[0], c.nev);
		if (rgp_write(&c, opt_rgp, selected_event, NULL, why, sizeof(why)) == 0) {
			fflush(stdout);
			errx(2, "%s", why);
		}
		capture_close(&c);
		return 0;
	}
	if (capture_dump_start(&d) != 0)
		errx(2, "%s", d.err);
	for (i = 0; i < argc; i++) {
		if (capture_open(&c, argv[i], &copt, why, sizeof(why)) != 0) {
			fflush(stdout);
			errx(2, "%s", why);
		}
		/* a capture none of whose buffers is selected adds no line: a selection that
		 * matches nothing writes nothing */
		for (j = 0; j < c.nev && !capture_selects(&copt, &c, &c.ev[j], offset); j++)
			;
		if (j < c.nev && capture_dump_meta(&d, &c, &copt, offset) != 0)
			errx(2, "%s", d.err);
		fflush(stdout);
		for (; j < c.nev; j++)
			if (capture_selects(&copt, &c, &c.ev[j], offset) &&
			    capture_dump_event(&d, &c, &c.ev[j], argv[i], offset + c.ev[j].index) != 0)
				fatal(&d);
		offset += (unsigned)c.nev;
		out_flush();
		capture_close(&c);
	}
	out_flush();
	capture_dump_free(&d);
	/* a selection that matched nothing is an error, not an empty stream */
	if (d.nselected == 0)
		selects_none(NULL, offset);
	if (d.f.types_given && d.po.lines == 0)
		errx(2, "--types: no token of those types in the %u trace buffer%s selected",
		    d.nselected, d.nselected == 1 ? "" : "s");
	if (d.nnoprog > 0 && d.nnoprog < d.nselected)
		warning_out("%u of %u trace buffers match no program: their kernel is '-'",
		    d.nnoprog, d.nselected);
	if (d.unknown)
		warning_out("%" PRIu64 " UNKNOWN tokens (not a %s stream, or damaged)", d.unknown,
		    d.unknown_gen);
	if (d.lost)
		warning_out("%" PRIu64 " TIMESTAMP tokens report lost packets", d.lost);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return 0;
}

CLI_MAIN(run)
