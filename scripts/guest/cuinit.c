/* cuinit.c — guest probe: dlopen libcuda.so.1, call cuInit/cuDeviceGetCount/cuDeviceGetName and
 * print the results. dlopen (not -lcuda) so the binary builds on a host without libcuda. */
#include <dlfcn.h>
#include <stdio.h>

typedef int (*cu_init_t)(unsigned int);
typedef int (*cu_count_t)(int *);
typedef int (*cu_name_t)(char *, int, int);

int main(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	if (!h) {
		printf("cuinit: dlopen libcuda.so.1: %s\n", dlerror());
		return 2;
	}
	cu_init_t init = (cu_init_t)dlsym(h, "cuInit");
	cu_count_t count = (cu_count_t)dlsym(h, "cuDeviceGetCount");
	cu_name_t name = (cu_name_t)dlsym(h, "cuDeviceGetName");
	if (!init || !count || !name) {
		printf("cuinit: missing symbols\n");
		return 2;
	}
	int rc = init(0);
	printf("cuinit: cuInit rc=%d\n", rc);
	if (rc)
		return 1;
	int n = 0;
	rc = count(&n);
	printf("cuinit: cuDeviceGetCount rc=%d count=%d\n", rc, n);
	for (int i = 0; i < n; i++) {
		char buf[128] = "";
		rc = name(buf, sizeof(buf), i);
		printf("cuinit: device %d rc=%d name=%s\n", i, rc, buf);
	}
	return n > 0 ? 0 : 1;
}
