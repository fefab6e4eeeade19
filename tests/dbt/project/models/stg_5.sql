select region_id, name, 5 as batch from {{ ref('regions') }}
