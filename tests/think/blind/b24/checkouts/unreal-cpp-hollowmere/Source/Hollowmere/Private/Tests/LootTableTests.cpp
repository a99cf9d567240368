#include "Misc/AutomationTest.h"
#include "Loot/HMLootTable.h"

#if WITH_DEV_AUTOMATION_TESTS

IMPLEMENT_SIMPLE_AUTOMATION_TEST(FHMLootTableRollCountTest, "Hollowmere.Loot.RollCount",
	EAutomationTestFlags::EditorContext | EAutomationTestFlags::EngineFilter)

bool FHMLootTableRollCountTest::RunTest(const FString& Parameters)
{
	FHMLootTable Table;
	Table.Entries.Add(FHMLootEntry{ TEXT("Herb_Moonleaf"), 1, 1.0f });
	Table.RollCount = 3;

	FRandomStream Stream(1337);
	const TArray<FHMLootEntry> Drops = Table.Roll(Stream);
	TestEqual(TEXT("Drops.Num()"), Drops.Num(), 3);
	return true;
}

IMPLEMENT_SIMPLE_AUTOMATION_TEST(FHMLootTableEmptyTest, "Hollowmere.Loot.EmptyTableDropsNothing",
	EAutomationTestFlags::EditorContext | EAutomationTestFlags::EngineFilter)

bool FHMLootTableEmptyTest::RunTest(const FString& Parameters)
{
	FHMLootTable Table;
	FRandomStream Stream(7);
	TestTrue(TEXT("Roll() on empty table is empty"), Table.Roll(Stream).IsEmpty());
	return true;
}

#endif
