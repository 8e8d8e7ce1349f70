// SPDX-License-Identifier: MIT
// Whether an X server or a Wayland compositor can take a window, asked the way Qt's platform plugins ask:
// libxcb's own xcb_connect (loaded at run time: Qt's xcb plugin links it, IOLab does not), and a connect to
// the compositor's socket.
#include "platform/platform.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include <dlfcn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace iolab {

namespace {

std::string environment(const char* name)
{
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

bool reachX11(std::string& problem)
{
    const std::string display = environment("DISPLAY");
    if (display.empty()) {
        problem = "DISPLAY is not set";
        return false;
    }
    void* xcb = ::dlopen("libxcb.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (xcb == nullptr) {
        problem = "libxcb.so.1, which Qt needs to talk to an X server, is not installed";
        return false;
    }
    using Connect = void* (*)(const char*, int*);
    using HasError = int (*)(void*);
    using Disconnect = void (*)(void*);
    const auto connect = reinterpret_cast<Connect>(::dlsym(xcb, "xcb_connect"));
    const auto hasError = reinterpret_cast<HasError>(::dlsym(xcb, "xcb_connection_has_error"));
    const auto disconnect = reinterpret_cast<Disconnect>(::dlsym(xcb, "xcb_disconnect"));
    bool reached = false;
    if (connect != nullptr && hasError != nullptr && disconnect != nullptr) {
        void* connection = connect(display.c_str(), nullptr);
        reached = connection != nullptr && hasError(connection) == 0;
        if (connection != nullptr)
            disconnect(connection); // also frees the error object xcb returns on failure
    }
    ::dlclose(xcb);
    if (!reached)
        problem = "no X server accepts a connection at DISPLAY=" + display;
    return reached;
}

bool reachWayland(std::string& problem)
{
    if (!environment("WAYLAND_SOCKET").empty())
        return true; // a socket handed down by the compositor that started this program
    const std::string name = environment("WAYLAND_DISPLAY");
    if (name.empty()) {
        problem = "WAYLAND_DISPLAY is not set";
        return false;
    }
    const std::string runtime = environment("XDG_RUNTIME_DIR");
    const std::string path = name.front() == '/' ? name : runtime + "/" + name;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof(address.sun_path) || (name.front() != '/' && runtime.empty())) {
        problem = "WAYLAND_DISPLAY=" + name + " names no socket (XDG_RUNTIME_DIR is " +
                  (runtime.empty() ? std::string("not set") : runtime) + ")";
        return false;
    }
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const bool reached =
        fd >= 0 && ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0;
    const int error = errno;
    if (fd >= 0)
        ::close(fd);
    if (!reached)
        problem = "no Wayland compositor listens at " + path + " (" + std::strerror(error) + ")";
    return reached;
}

} // namespace

DisplayServers probeDisplayServers()
{
    DisplayServers servers;
    servers.needsServer = true;
    servers.x11 = reachX11(servers.x11Problem);
    servers.wayland = reachWayland(servers.waylandProblem);
    return servers;
}

const char* headlessQtPlatform()
{
    return "offscreen";
}

std::vector<EnvironmentDefault> qtEnvironmentDefaults()
{
    return {};
}

} // namespace iolab
