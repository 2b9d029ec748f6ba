// The CommonMark parser of GitHub (Debian's libcmark-gfm-dev): the core parser only, without
// the GFM extensions.
#include <cmark-gfm.h>
