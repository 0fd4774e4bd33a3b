// web.hpp — the public header of cli/web/ (`houserules serve`), included by the front as "web/web.hpp":
// the games the server holds and their JSON API (serve.hpp) and the table as the page draws it (web_view.hpp).
#pragma once

#include "serve.hpp"
#include "web_view.hpp"
