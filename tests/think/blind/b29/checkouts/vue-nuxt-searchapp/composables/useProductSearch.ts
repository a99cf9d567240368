export function useProductSearch() {
  const query = ref('')
  const results = ref<Product[]>([])
  const pending = ref(false)

  watch(query, async (q) => {
    if (q.trim().length < 2) {
      results.value = []
      return
    }
    pending.value = true
    results.value = await $fetch('/api/search', { query: { q } })
    pending.value = false
  })

  return { query, results, pending }
}
