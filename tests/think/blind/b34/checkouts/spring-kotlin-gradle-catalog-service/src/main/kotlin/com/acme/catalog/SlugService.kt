package com.acme.catalog

import org.springframework.stereotype.Service
import java.text.Normalizer

@Service
class SlugService {
    fun slugify(title: String): String =
        Normalizer.normalize(title, Normalizer.Form.NFD)
            .replace(Regex("\\p{M}+"), "")
            .lowercase()
            .replace(Regex("[^a-z0-9]+"), "-")
            .trim('-')
}
