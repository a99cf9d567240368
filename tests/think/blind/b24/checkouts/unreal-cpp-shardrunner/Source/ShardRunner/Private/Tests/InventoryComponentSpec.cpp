#include "Misc/AutomationTest.h"
#include "Components/ShardInventoryComponent.h"

#if WITH_DEV_AUTOMATION_TESTS

BEGIN_DEFINE_SPEC(FInventoryComponentSpec, "ShardRunner.Inventory", EAutomationTestFlags::EditorContext | EAutomationTestFlags::ProductFilter)
	UShardInventoryComponent* Inventory = nullptr;
END_DEFINE_SPEC(FInventoryComponentSpec)

void FInventoryComponentSpec::Define()
{
	BeforeEach([this]()
	{
		Inventory = NewObject<UShardInventoryComponent>();
		Inventory->MaxStackSize = 5;
	});

	Describe("AddItem", [this]()
	{
		It("merges partial stacks up to the max", [this]()
		{
			Inventory->AddItem(TEXT("ShardOre"), 3);
			Inventory->AddItem(TEXT("ShardOre"), 2);
			TestEqual("Slot.StackCount", Inventory->GetSlot(0).StackCount, 5);
		});

		It("rejects unknown item ids", [this]()
		{
			TestFalse("AddItem(None)", Inventory->AddItem(NAME_None, 1));
		});
	});

	Describe("RemoveItem", [this]()
	{
		It("removes empty slots", [this]()
		{
			Inventory->AddItem(TEXT("ShardOre"), 1);
			Inventory->RemoveItem(TEXT("ShardOre"), 1);
			TestEqual("Inventory->GetSlots().Num()", Inventory->GetSlots().Num(), 0);
		});
	});
}

#endif
