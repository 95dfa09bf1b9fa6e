// libdeflate (Debian's libdeflate-dev): whole-buffer DEFLATE, for packs' and snapshots' bodies.
#include <libdeflate.h>
