using NUnit.Framework;
using Quarrytown.Inventory;

namespace Quarrytown.Tests.EditMode
{
    public class InventoryServiceTests
    {
        [Test]
        public void Add_StacksSameItem()
        {
            var inv = new InventoryService(capacity: 10);
            inv.Add("stone", 3);
            inv.Add("stone", 4);
            Assert.AreEqual(7, inv.Count("stone"));
        }

        [Test]
        public void Remove_MoreThanHeld_ReturnsFalse()
        {
            var inv = new InventoryService(capacity: 10);
            inv.Add("ore", 2);
            Assert.IsFalse(inv.Remove("ore", 5));
        }
    }
}
