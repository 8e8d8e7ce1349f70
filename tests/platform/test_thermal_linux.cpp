// SPDX-License-Identifier: MIT
// Heat on Linux (issue 39, part 4): the drive's temperature from hwmon, found from the target's device (a
// partition's disk), in recorded sysfs trees: this VM's virtio disk has no sensor. The NVMe health log needs
// an NVMe controller and root: here only its refusal for a disk that is not NVMe is checked; its parsing is
// tests/core/test_thermal.cpp's.
#include "platform/linux/thermal_linux.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace iolab {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

void write(const fs::path& path, const std::string& text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text << "\n";
}

// A sysfs tree as Linux lays one out: /sys/block/<disk> and /sys/class/block/<disk or partition>, each a
// link into /sys/devices, the disk's `device` a link to its controller (NVMe) or SCSI device (SATA).
class ThermalTree : public ::testing::Test
{
protected:
    fs::path root() const { return m_dir.path(); }

    // An NVMe namespace nvme0n1 with partition nvme0n1p2; `hwmonUnder`: "controller" (kernels since 5.10),
    // "pci" (5.5 to 5.9) or "" (none).
    void nvme(const std::string& hwmonUnder)
    {
        const fs::path pci = root() / "sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0";
        const fs::path controller = pci / "nvme/nvme0";
        const fs::path disk = controller / "nvme0n1";
        write(disk / "nvme0n1p2/partition", "2");
        fs::create_directory_symlink(controller, disk / "device");
        fs::create_directory_symlink(pci, controller / "device");
        if (!hwmonUnder.empty()) {
            const fs::path hwmon = hwmonUnder == "pci" ? pci / "hwmon/hwmon2" : controller / "hwmon1";
            write(hwmon / "name", "nvme");
            write(hwmon / "temp1_input", "38850");
            write(hwmon / "temp1_label", "Sensor 1"); // some drives list a sensor first
            write(hwmon / "temp2_input", "44850");
            write(hwmon / "temp2_label", "Composite");
            write(hwmon / "temp2_max", "81850");
            write(hwmon / "temp2_crit", "84850");
        }
        link(disk, "nvme0n1");
        link(disk / "nvme0n1p2", "nvme0n1p2", false);
    }

    // A SATA disk sda under the drivetemp driver.
    void sata()
    {
        const fs::path scsi = root() / "sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0";
        const fs::path disk = scsi / "block/sda";
        fs::create_directories(disk);
        fs::create_directory_symlink(scsi, disk / "device");
        write(scsi / "hwmon/hwmon4/name", "drivetemp");
        write(scsi / "hwmon/hwmon4/temp1_input", "36000");
        write(scsi / "hwmon/hwmon4/temp1_crit", "70000");
        link(disk, "sda");
    }

    void link(const fs::path& to, const std::string& name, bool inBlock = true)
    {
        fs::create_directories(root() / "sys/class/block");
        fs::create_directory_symlink(to, root() / "sys/class/block" / name);
        if (inBlock) {
            fs::create_directories(root() / "sys/block");
            fs::create_directory_symlink(to, root() / "sys/block" / name);
        }
    }

private:
    test::TempDir m_dir;
};

TEST_F(ThermalTree, AnNvmeDrivesCompositeSensorFoundFromAPartition)
{
    nvme("controller");
    const auto r = linux_thermal::read(root().string(), "nvme0n1p2");
    ASSERT_TRUE(r);
    EXPECT_DOUBLE_EQ(*r->celsius, 44.85) << "the Composite sensor, not the first";
    EXPECT_DOUBLE_EQ(*r->warningCelsius, 81.85);
    EXPECT_DOUBLE_EQ(*r->criticalCelsius, 84.85);
    EXPECT_EQ(r->source, "hwmon nvme (Composite)");
    EXPECT_EQ(linux_thermal::read(root().string(), "nvme0n1"), r) << "the disk itself gives the same";
}

TEST_F(ThermalTree, OlderKernelsHangTheSensorOnThePciDevice)
{
    nvme("pci");
    const auto r = linux_thermal::read(root().string(), "nvme0n1");
    ASSERT_TRUE(r);
    EXPECT_DOUBLE_EQ(*r->celsius, 44.85);
}

TEST_F(ThermalTree, ASataDiskUnderDrivetemp)
{
    sata();
    const auto r = linux_thermal::read(root().string(), "sda");
    ASSERT_TRUE(r);
    EXPECT_DOUBLE_EQ(*r->celsius, 36.0);
    EXPECT_DOUBLE_EQ(*r->criticalCelsius, 70.0);
    EXPECT_EQ(r->source, "hwmon drivetemp");
}

TEST_F(ThermalTree, ADiskWithoutASensorSaysNothing)
{
    nvme("");
    EXPECT_FALSE(linux_thermal::read(root().string(), "nvme0n1p2"));
    EXPECT_FALSE(linux_thermal::read(root().string(), "missing"));
    EXPECT_FALSE(linux_thermal::read(root().string(), ""));
}

TEST(NvmeHealthLog, ADiskThatIsNotNvmeHasNone)
{
    std::string why;
    EXPECT_FALSE(linux_thermal::nvmeHealthLog("vda", why));
    EXPECT_THAT(why, HasSubstr("not an NVMe drive"));
    EXPECT_FALSE(linux_thermal::nvmeHealthLog("nvme99n1", why)) << "no such controller";
    EXPECT_THAT(why, HasSubstr("/dev/nvme99"));
}

} // namespace
} // namespace iolab
