#include <stdio.h>
void xmit(int len);
int main(void)
{
	xmit(100);
	printf("main: done\n");
	return 0;
}
