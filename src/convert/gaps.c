#include "convert.h"
static void *o(cv_ctx *c){(void)c; return (void*)1;}
static void e(void *s, const cv_event *ev){(void)s;(void)ev;}
static bool cl(void *s){(void)s; return true;}
const cv_sink cv_gaps_sink = {"gaps", o, e, NULL, cl};
