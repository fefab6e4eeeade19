select region_id, name, 8 as batch from {{ ref('regions') }}
