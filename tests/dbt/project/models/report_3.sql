select m.region_id, count(*) as n from {{ ref('mart_3') }} m join {{ ref('mart_6') }} using (region_id) group by 1
