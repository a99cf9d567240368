<?php

uses(Tests\TestCase::class)->in('Feature');
uses(Tests\TestCase::class, Illuminate\Foundation\Testing\RefreshDatabase::class)->in('Unit/Services');
