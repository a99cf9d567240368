package com.acme.yamlhelper

import com.intellij.openapi.diagnostic.logger
import com.intellij.openapi.project.Project
import com.jetbrains.jsonSchema.extension.JsonSchemaFileProvider
import com.jetbrains.jsonSchema.extension.JsonSchemaProviderFactory

class SchemaProviderFactory : JsonSchemaProviderFactory {
    override fun getProviders(project: Project): List<JsonSchemaFileProvider> {
        val providers = SchemaCatalog.load().map { AcmeSchemaProvider(it) }
        logger<SchemaProviderFactory>().info("SchemaProviderFactory registered ${providers.size} schema mappings")
        return providers
    }
}
