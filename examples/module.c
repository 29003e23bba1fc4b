/* module.c - a loader for modules linked into the program: loading runs the
 * module's init function, deleting its exit function.
 * Fires module:module_load and module:module_free. */
#include <string.h>
#include "toy.h"
#include <events/module.h>

static struct module {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
	unsigned int taints;
	int live;
} modules[] = {
	{ "i915", i915_init, i915_exit, 0, 0 },
};

static struct module *find_module(const char *name)
{
	size_t i;
	for (i = 0; i < sizeof(modules) / sizeof(modules[0]); i++)
		if (strcmp(modules[i].name, name) == 0)
			return &modules[i];
	return NULL;
}

int load_module(const char *name)
{
	struct module *mod = find_module(name);

	if (!mod || mod->live)
		return -1;
	trace_module_load(mod->name, mod->taints);
	if (mod->init() != 0)
		return -1;
	mod->live = 1;
	return 0;
}

int delete_module(const char *name)
{
	struct module *mod = find_module(name);

	if (!mod || !mod->live)
		return -1;
	mod->exit();
	mod->live = 0;
	trace_module_free(mod->name);
	return 0;
}
