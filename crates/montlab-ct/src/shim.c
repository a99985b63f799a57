/* valgrind memcheck client requests for the taint harness (the ctgrind / TIMECOP method):
 * secret bytes are marked undefined, so memcheck reports every branch and memory index that
 * depends on them; results are marked defined again before they are compared. Outside
 * valgrind the requests are no-ops. */
#include <stddef.h>
#include <valgrind/memcheck.h>

void montlab_ct_secret(const void *p, size_t n) { VALGRIND_MAKE_MEM_UNDEFINED(p, n); }
void montlab_ct_public(const void *p, size_t n) { VALGRIND_MAKE_MEM_DEFINED(p, n); }
