#pragma once

#include "CoreMinimal.h"
#include "Components/ActorComponent.h"
#include "ShardInventoryComponent.generated.h"

USTRUCT(BlueprintType)
struct FInventorySlot
{
	GENERATED_BODY()

	UPROPERTY(BlueprintReadOnly) FName ItemId;
	UPROPERTY(BlueprintReadOnly) int32 StackCount = 0;
};

DECLARE_DYNAMIC_MULTICAST_DELEGATE(FOnInventoryChanged);

UCLASS(ClassGroup = (ShardRunner), meta = (BlueprintSpawnableComponent))
class SHARDRUNNER_API UShardInventoryComponent : public UActorComponent
{
	GENERATED_BODY()

public:
	UPROPERTY(EditDefaultsOnly, Category = "Inventory") int32 MaxStackSize = 20;
	UPROPERTY(BlueprintAssignable) FOnInventoryChanged OnInventoryChanged;

	UFUNCTION(BlueprintCallable, Category = "Inventory") bool AddItem(FName ItemId, int32 Count);
	UFUNCTION(BlueprintCallable, Category = "Inventory") bool RemoveItem(FName ItemId, int32 Count);

	const FInventorySlot& GetSlot(int32 Index) const { return Slots[Index]; }
	const TArray<FInventorySlot>& GetSlots() const { return Slots; }

private:
	UPROPERTY() TArray<FInventorySlot> Slots;
};
