// A C target needs a source file; the header is all there is.
#include "CEventPoll.h"
