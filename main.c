/* main.c: starts the engine on stdin and stdout. */
#include "engine.h"

int main(void)
{
	struct session *s = session_new();
	int ret = engine_run(s, 0, 1);
	session_free(s);
	return ret < 0 ? 1 : 0;
}
